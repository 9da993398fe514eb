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

  /**
   * By run, pid, tid, load, stack ({@link #compareStacks}), count, CPU ns. Written out, not as a
   * chain of comparator lambdas: the reports sort hundreds of thousands of stacks with it, and
   * C1 (small inputs run without C2) inlines none of a chain's calls.
   */
  public static final Comparator<StackWeight> STACKS = StackOrder::compareWeights;

  private static int compareWeights(StackWeight a, StackWeight b) {
    if (a == b) {
      return 0;
    }
    int c = a.runId() == b.runId() ? 0 : a.runId().compareTo(b.runId());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(a.pid(), b.pid());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(a.tid(), b.tid());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(a.load(), b.load());
    if (c != 0) {
      return c;
    }
    c = compareStacks(a.stack(), b.stack());
    if (c != 0) {
      return c;
    }
    c = Long.compare(a.count(), b.count());
    return c != 0 ? c : Long.compare(a.cpuNs(), b.cpuNs());
  }

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
