package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * perf's symbol tree: with symbols that do not overlap it must answer as a sorted search does,
 * after any mix of inserts and the alias erasures; overlaps are checked against perf itself in
 * {@link SymbolizerAgainstPerfTest}.
 */
class SymbolTreeTest {
  @Test
  void withoutOverlapsTheTreeAnswersLikeASortedSearch() {
    Random random = new Random(21);
    for (int trial = 0; trial < 50; trial++) {
      List<SymbolTable.Entry> entries = new ArrayList<>();
      int count = 1 + random.nextInt(300);
      for (int i = 0; i < count; i++) {
        long start = 0x1000 + 16L * random.nextInt(400); // many aliases at one start
        entries.add(new SymbolTable.Entry(start, random.nextInt(3) == 0 ? 0 : 8,
            random.nextInt(3), "sym" + i + "_".repeat(random.nextInt(3)), ""));
      }
      SymbolTree tree = new SymbolTree();
      for (SymbolTable.Entry entry : entries) {
        tree.insert(entry.start(), entry.start() + entry.size(), entry.binding(), entry.name());
      }
      tree.fixupEnds();
      tree.dropAliases();
      SymbolTable viaTree = SymbolTable.of(tree);
      SymbolTable sorted = SymbolTable.of(entries, false);
      assertEquals(sorted.size(), viaTree.size(), "symbols left, trial " + trial);
      for (long address = 0xff0; address < 0x1000 + 16 * 400 + 0x2000; address += 4) {
        int a = sorted.find(address);
        int b = viaTree.find(address);
        assertEquals(a < 0 ? "[unknown]" : sorted.name(a), b < 0 ? "[unknown]" : viaTree.name(b),
            "trial " + trial + " at " + Long.toHexString(address));
      }
    }
  }
}
