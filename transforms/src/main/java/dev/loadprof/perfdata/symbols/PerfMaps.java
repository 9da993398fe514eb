package dev.loadprof.perfdata.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JIT's symbol map, perf-PID.map: one "START SIZE NAME" line per compiled method, in hex. As in
 * perf, a symbol covers exactly [START, START+SIZE) and the names are printed as written.
 */
final class PerfMaps {
  private PerfMaps() {}

  /** The map's symbols; empty when the file is missing (perf then prints [unknown]). */
  static SymbolTable load(Path map) {
    if (!Files.isReadable(map)) {
      return SymbolTable.EMPTY;
    }
    List<SymbolTable.Entry> entries = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(map, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        SymbolTable.Entry entry = parse(line);
        if (entry != null) {
          entries.add(entry);
        }
      }
    } catch (IOException | RuntimeException e) {
      return tree(entries); // what was read before the failure
    }
    return tree(entries);
  }

  /** perf inserts a JIT map's lines in order, nothing fixed or dropped: reused code overlaps. */
  private static SymbolTable tree(List<SymbolTable.Entry> entries) {
    SymbolTree tree = new SymbolTree();
    for (SymbolTable.Entry entry : entries) {
      tree.insert(entry.start(), entry.start() + entry.size(), entry.binding(), entry.name());
    }
    return SymbolTable.of(tree);
  }

  static SymbolTable.Entry parse(String line) {
    int first = line.indexOf(' ');
    int second = first < 0 ? -1 : line.indexOf(' ', first + 1);
    if (second < 0) {
      return null;
    }
    try {
      long start = Long.parseUnsignedLong(stripHexPrefix(line.substring(0, first)), 16);
      long size = Long.parseUnsignedLong(stripHexPrefix(line.substring(first + 1, second)), 16);
      String name = line.substring(second + 1).strip();
      return name.isEmpty() ? null
          : new SymbolTable.Entry(start, size, SymbolTable.GLOBAL, name, "");
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String stripHexPrefix(String hex) {
    return hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
  }
}
