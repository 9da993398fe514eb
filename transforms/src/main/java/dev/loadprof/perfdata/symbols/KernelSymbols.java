package dev.loadprof.perfdata.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's symbols from a kallsyms file ("ADDRESS TYPE NAME [MODULE]"), kept as perf keeps
 * them: text, weak, data and bss symbols; each ends where the next begins. A file whose addresses
 * are all zero (kptr_restrict, or read without root) holds no usable symbol.
 */
final class KernelSymbols {
  /** The kernel's symbol table, and why it is empty when it is (null otherwise). */
  record Loaded(SymbolTable table, String problem) {}

  private KernelSymbols() {}

  static Loaded load(Path kallsyms) {
    if (kallsyms == null || !Files.isReadable(kallsyms)) {
      return new Loaded(SymbolTable.EMPTY, "cannot read " + kallsyms);
    }
    List<SymbolTable.Entry> entries = new ArrayList<>();
    boolean anyAddress = false;
    try (BufferedReader in = Files.newBufferedReader(kallsyms, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        SymbolTable.Entry entry = parse(line);
        if (entry != null) {
          anyAddress |= entry.start() != 0;
          entries.add(entry);
        }
      }
    } catch (IOException | RuntimeException e) {
      return new Loaded(SymbolTable.EMPTY, "cannot read " + kallsyms + ": " + e.getMessage());
    }
    if (!anyAddress) {
      return new Loaded(SymbolTable.EMPTY, kallsyms + " shows no addresses (kptr_restrict:"
          + " read it as root, or record with the build-id cache)");
    }
    return new Loaded(SymbolTable.of(entries, true), null);
  }

  /** One kallsyms line, or null for a type perf ignores or a malformed line. */
  static SymbolTable.Entry parse(String line) {
    int space = line.indexOf(' ');
    if (space <= 0 || space + 3 > line.length() || line.charAt(space + 2) != ' ') {
      return null;
    }
    char type = line.charAt(space + 1);
    char upper = Character.toUpperCase(type);
    if (upper != 'T' && upper != 'W' && upper != 'D' && upper != 'B' && type != 'u'
        && type != 'l') {
      return null;
    }
    String rest = line.substring(space + 3);
    String module = "";
    int tab = rest.indexOf('\t');
    if (tab >= 0) {
      String tail = rest.substring(tab + 1).strip();
      module = tail.startsWith("[") && tail.endsWith("]") ? tail.substring(1, tail.length() - 1)
          : tail;
      rest = rest.substring(0, tab);
    }
    if (rest.isEmpty() || (!module.isEmpty() && rest.startsWith("$"))) {
      return null;
    }
    long address = Long.parseUnsignedLong(line.substring(0, space), 16);
    int binding = Character.isUpperCase(type) ? SymbolTable.GLOBAL : SymbolTable.LOCAL;
    if (upper == 'W') {
      binding = SymbolTable.WEAK;
    }
    return new SymbolTable.Entry(address, 0, binding, rest, module);
  }
}
