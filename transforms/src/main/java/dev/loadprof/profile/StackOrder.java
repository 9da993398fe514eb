package dev.loadprof.profile;

import dev.loadprof.model.Frame;
import java.util.Comparator;

/**
 * A total order on frames and stack weights, so that everything built from them (ids, sample
 * order, report lines) is the same whatever order the pipeline delivered them in.
 */
public final class StackOrder {
  private StackOrder() {}

  public static final Comparator<Frame> FRAMES =
      Comparator.comparing(Frame::symbol)
          .thenComparing(Frame::dso)
          .thenComparing(Frame::address, Long::compareUnsigned);

  public static final Comparator<StackWeight> STACKS =
      Comparator.comparing(StackWeight::runId)
          .thenComparingInt(StackWeight::pid)
          .thenComparingInt(StackWeight::tid)
          .thenComparingInt(StackWeight::load)
          .thenComparing(StackWeight::stack, StackOrder::compareStacks)
          .thenComparingLong(StackWeight::count)
          .thenComparingLong(StackWeight::cpuNs);

  /** Lexicographic by frame, a shorter prefix first. */
  public static int compareStacks(Frame[] a, Frame[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int c = FRAMES.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }
}
