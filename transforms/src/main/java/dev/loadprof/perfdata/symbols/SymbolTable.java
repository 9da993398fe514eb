package dev.loadprof.perfdata.symbols;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The symbols of one object (an ELF file, the kernel, a JIT map), sorted by start, with the ends
 * and the choice among aliases that perf 6.1 makes (util/symbol.c): a symbol of size 0 ends where
 * the next one starts (the last one a page past its start, rounded to a page); of several symbols
 * at one address perf keeps the one with a size, then a non-weak one, then a global one, then the
 * one with fewer leading underscores, then the longest name, then the first one seen. Immutable.
 */
final class SymbolTable {
  static final SymbolTable EMPTY = new SymbolTable(new long[0], new long[0], new String[0]);
  private static final long PAGE = 4096;

  private final long[] starts;
  private final long[] ends;
  private final String[] names;
  /** perf's own tree, where symbols may overlap (ELF files, JIT maps); null for kallsyms. */
  private final SymbolTree tree;

  private SymbolTable(long[] starts, long[] ends, String[] names) {
    this.starts = starts;
    this.ends = ends;
    this.names = names;
    this.tree = null;
  }

  private SymbolTable(SymbolTree tree) {
    this.starts = null;
    this.ends = null;
    this.names = null;
    this.tree = tree;
  }

  /** A table answered by perf's tree, once {@code tree} holds all its symbols. */
  static SymbolTable of(SymbolTree tree) {
    tree.freeze();
    return new SymbolTable(tree);
  }

  /** ELF symbol bindings, as st_info's high nibble gives them. */
  static final int LOCAL = 0;
  static final int GLOBAL = 1;
  static final int WEAK = 2;

  /**
   * One symbol as its source states it. {@code module} is the kernel module a kallsyms symbol
   * belongs to ("" for the kernel itself and for every other source).
   */
  record Entry(long start, long size, int binding, String name, String module) {}

  /** Builds the table; {@code kallsyms} turns on perf's page rule at kernel/module borders. */
  static SymbolTable of(List<Entry> entries, boolean kallsyms) {
    if (entries.isEmpty()) {
      return EMPTY;
    }
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong(Entry::start)); // stable: equal starts keep their order
    int n = sorted.size();
    long[] ends = new long[n];
    for (int i = 0; i < n; i++) {
      Entry e = sorted.get(i);
      ends[i] = e.start() + e.size();
    }
    fixupEnds(sorted, ends, kallsyms);
    return dropAliases(sorted, ends);
  }

  private static void fixupEnds(List<Entry> sorted, long[] ends, boolean kallsyms) {
    int n = sorted.size();
    for (int i = 0; i + 1 < n; i++) {
      Entry prev = sorted.get(i);
      Entry next = sorted.get(i + 1);
      if (ends[i] != prev.start()) {
        continue;
      }
      boolean border = !prev.module().isEmpty() != !next.module().isEmpty();
      if (kallsyms && border) {
        ends[i] = roundUpToPage(prev.start() + PAGE); // the last symbol before the modules
      } else {
        ends[i] = next.start();
      }
    }
    if (ends[n - 1] == sorted.get(n - 1).start()) {
      ends[n - 1] = roundUpToPage(sorted.get(n - 1).start()) + PAGE;
    }
  }

  private static long roundUpToPage(long address) {
    return (address + PAGE - 1) & -PAGE;
  }

  private static SymbolTable dropAliases(List<Entry> sorted, long[] ends) {
    int n = sorted.size();
    long[] keptStarts = new long[n];
    long[] keptEnds = new long[n];
    String[] keptNames = new String[n];
    int kept = 0;
    int best = 0;
    for (int i = 1; i <= n; i++) {
      if (i < n && sorted.get(i).start() == sorted.get(best).start()) {
        if (!firstIsBetter(sorted.get(best), ends[best], sorted.get(i), ends[i])) {
          best = i;
        }
        continue;
      }
      keptStarts[kept] = sorted.get(best).start();
      keptEnds[kept] = ends[best];
      keptNames[kept] = sorted.get(best).name();
      kept++;
      best = i;
    }
    return new SymbolTable(Arrays.copyOf(keptStarts, kept), Arrays.copyOf(keptEnds, kept),
        Arrays.copyOf(keptNames, kept));
  }

  /** perf's choice between two symbols at one address; true keeps {@code a}. */
  static boolean firstIsBetter(Entry a, long endA, Entry b, long endB) {
    boolean sizedA = endA > a.start();
    boolean sizedB = endB > b.start();
    if (sizedA != sizedB) {
      return sizedA;
    }
    boolean weakA = a.binding() == WEAK;
    boolean weakB = b.binding() == WEAK;
    if (weakA != weakB) {
      return weakB;
    }
    boolean globalA = a.binding() == GLOBAL;
    boolean globalB = b.binding() == GLOBAL;
    if (globalA != globalB) {
      return globalA;
    }
    int underscoresA = leadingUnderscores(a.name());
    int underscoresB = leadingUnderscores(b.name());
    if (underscoresA != underscoresB) {
      return underscoresA < underscoresB;
    }
    if (a.name().length() != b.name().length()) {
      return a.name().length() > b.name().length();
    }
    // perf's x86 tie-break: avoid the kernel's "SyS" syscall aliases
    return !(a.name().startsWith("SyS") || a.name().startsWith("compat_SyS"));
  }

  private static int leadingUnderscores(String name) {
    int i = 0;
    while (i < name.length() && name.charAt(i) == '_') {
      i++;
    }
    return i;
  }

  /** Index of the symbol that holds {@code address}, or -1. */
  int find(long address) {
    if (tree != null) {
      return tree.find(address);
    }
    int i = Arrays.binarySearch(starts, address);
    if (i < 0) {
      i = -i - 2;
    }
    return i >= 0 && address < ends[i] ? i : -1;
  }

  String name(int index) {
    return tree != null ? tree.name(index) : names[index];
  }

  long start(int index) {
    return tree != null ? tree.start(index) : starts[index];
  }

  int size() {
    return tree != null ? tree.size() : starts.length;
  }
}
