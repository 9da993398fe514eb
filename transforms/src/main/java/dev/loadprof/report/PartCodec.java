package dev.loadprof.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * A run's kept part ({@link RunAnalyses.Part}) as plain numbers and a table of its strings, for
 * the figures stored beside archived runs: Java serialization of its runs and processes, one
 * stream a run, was the most of a nightly's reading of its 2,900 past runs (class descriptors
 * read again for every run, every map entry an object), and of its collector's and compilers'
 * work. Written only for the shape a part has ({@link RunAnalyses.Part}: no load-timeline
 * buckets, no thread-state lanes, no waits by stack, no filtered-out processes, the collections
 * of the types the analysis makes); {@link PartWriter#part} says what is not, for any other, and its
 * caller then serializes it as before. Read back, every field is what Java serialization gives back, a
 * hash map's order of iteration included (sized as HashMap.readObject sizes it, filled in the
 * order it was written): figures summed from one iterate in the same order (compare.KeptCodecTest).
 * Every count is checked against the bytes left before it is used.
 */
public final class PartCodec {
  private PartCodec() {}

  /**
   * 0 for an ArrayList, 1 for an unchangeable list of List.copyOf (an analysis makes its runs,
   * processes and warnings so; Java reads one back as List.of gives it), -1 for another.
   */
  static int listKind(List<?> list) {
    if (list.getClass() == ArrayList.class) {
      return 0;
    }
    return list.getClass() == List.of().getClass()
        || list.getClass() == List.of("").getClass() ? 1 : -1;
  }

  /**
   * A hash map for {@code mappings} entries sized as HashMap.readObject sizes the one it reads
   * back (default load factor): filled in the order written, it iterates as that one does.
   */
  public static <K, V> HashMap<K, V> asJavaReadsBack(int mappings) {
    if (mappings == 0) {
      return new HashMap<>();
    }
    float fc = mappings / 0.75f + 1.0f;
    int cap = fc < 16 ? 16 : fc >= (1 << 30) ? (1 << 30)
        : Integer.highestOneBit(Math.max(1, (int) fc - 1)) << 1;
    return new HashMap<>(cap);
  }
}
