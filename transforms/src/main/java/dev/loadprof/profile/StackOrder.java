package dev.loadprof.profile;

import dev.loadprof.model.Frame;
import java.util.Comparator;

/**
 * A total order on frames and stack weights, so that everything built from them (ids, sample
 * order, report lines) is the same whatever order the pipeline delivered them in.
 */
public final class StackOrder {
  private StackOrder() {}

  /** By symbol, then object, then address (unsigned). */
  public static final Comparator<Frame> FRAMES = StackOrder::compareFrames;

  public static final Comparator<StackWeight> STACKS =
      Comparator.comparing(StackWeight::runId)
          .thenComparingInt(StackWeight::pid)
          .thenComparingInt(StackWeight::tid)
          .thenComparingInt(StackWeight::load)
          .thenComparing(StackWeight::stack, StackOrder::compareStacks)
          .thenComparingLong(StackWeight::count)
          .thenComparingLong(StackWeight::cpuNs);

  /**
   * {@link #FRAMES}. The same frame (or string) object is equal to itself without comparing its
   * characters: stacks share most of their frames, and frames their names.
   */
  private static int compareFrames(Frame a, Frame b) {
    if (a == b) {
      return 0;
    }
    int c = a.symbol() == b.symbol() ? 0 : a.symbol().compareTo(b.symbol());
    if (c != 0) {
      return c;
    }
    c = a.dso() == b.dso() ? 0 : a.dso().compareTo(b.dso());
    return c != 0 ? c : Long.compareUnsigned(a.address(), b.address());
  }

  /** Lexicographic by frame, a shorter prefix first. */
  public static int compareStacks(Frame[] a, Frame[] b) {
    if (a == b) {
      return 0;
    }
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int c = compareFrames(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }
}
