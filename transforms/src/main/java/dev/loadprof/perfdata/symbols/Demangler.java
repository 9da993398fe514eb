package dev.loadprof.perfdata.symbols;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * C++ and Rust names demangled as Debian's perf 6.1 prints them: libiberty's demangler without
 * parameters and without implementation details ("std::ostream", not "std::basic_ostream<char,
 * ...>"), which is what {@code c++filt -p -i} prints; a legacy Rust name then loses its
 * "::h0123..." hash as perf's own Rust step removes it. One c++filt process serves every name (it
 * answers line by line), each distinct name is asked once, and without c++filt names stay mangled
 * (counted in {@link #unavailable()}).
 */
final class Demangler implements AutoCloseable {
  private static final Pattern RUST_HASH = Pattern.compile("::h[0-9a-f]{16}$");
  private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_.$@]+");
  private static final int CHUNK_BYTES = 16 * 1024;

  private final List<String> command;
  private final ConcurrentHashMap<String, String> demangled = new ConcurrentHashMap<>();
  private Process process;
  private BufferedWriter toFilter;
  private BufferedReader fromFilter;
  private boolean broken;
  private long unavailable;

  Demangler() {
    this(List.of("c++filt", "-p", "-i"));
  }

  Demangler(List<String> command) {
    this.command = command;
  }

  /** True for the names perf's demangler would change: Itanium C++ (and legacy Rust), Rust v0. */
  static boolean looksMangled(String name) {
    return name.startsWith("_Z") || name.startsWith("_R");
  }

  String demangle(String name) {
    if (!looksMangled(name)) {
      return name;
    }
    String known = demangled.get(name); // before the pattern: most names are asked again
    if (known != null) {
      return known;
    }
    if (!WORD.matcher(name).matches()) {
      return name;
    }
    String result = rustWithoutHash(ask(name));
    demangled.putIfAbsent(name, result);
    return result;
  }

  /**
   * Demangles many names with one exchange per chunk instead of one per name; a chunk stays well
   * under a pipe's buffer, so c++filt never blocks on output nobody reads yet.
   */
  void demangleAll(Collection<String> names) {
    List<String> asked = new ArrayList<>();
    int bytes = 0;
    for (String name : names) {
      if (looksMangled(name) && WORD.matcher(name).matches() && !demangled.containsKey(name)) {
        asked.add(name);
        bytes += name.length() + 1;
        if (bytes > CHUNK_BYTES) {
          askChunk(asked);
          asked.clear();
          bytes = 0;
        }
      }
    }
    askChunk(asked);
  }

  private synchronized void askChunk(List<String> names) {
    if (names.isEmpty()) {
      return;
    }
    if (!broken && process == null) {
      start();
    }
    try {
      if (broken) {
        throw new IOException("c++filt unavailable");
      }
      for (String name : names) {
        toFilter.write(name);
        toFilter.write('\n');
      }
      toFilter.flush();
      for (String name : names) {
        String line = fromFilter.readLine();
        if (line == null) {
          throw new IOException("c++filt ended");
        }
        demangled.putIfAbsent(name, rustWithoutHash(line));
      }
    } catch (IOException e) {
      broken = true;
      for (String name : names) {
        if (demangled.putIfAbsent(name, name) == null) {
          unavailable++;
        }
      }
    }
  }

  private synchronized String ask(String name) {
    if (!broken && process == null) {
      start();
    }
    if (broken) {
      unavailable++;
      return name;
    }
    try {
      toFilter.write(name);
      toFilter.write('\n');
      toFilter.flush();
      String line = fromFilter.readLine();
      if (line == null) {
        throw new IOException("c++filt ended");
      }
      return line;
    } catch (IOException e) {
      broken = true;
      unavailable++;
      return name;
    }
  }

  private void start() {
    try {
      process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      toFilter = new BufferedWriter(
          new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
      fromFilter = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      broken = true;
    }
  }

  private static String rustWithoutHash(String name) {
    var hash = RUST_HASH.matcher(name);
    return hash.find() ? name.substring(0, hash.start()) : name;
  }

  /** How many names stayed mangled because c++filt could not be run. */
  synchronized long unavailable() {
    return unavailable;
  }

  @Override
  public synchronized void close() {
    if (process != null) {
      process.destroy();
      process = null;
    }
  }
}
