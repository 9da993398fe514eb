package dev.loadprof.wall;

import dev.loadprof.model.ThreadState;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongToDoubleFunction;

/**
 * A process's thread states over time, small enough for a page whatever the run: one lane per
 * thread, each cut into at most {@link #MAX_BUCKETS} equal buckets that say which state held
 * most of the thread's kept time in them, and at most {@link #MAX_LANES} lanes (the threads with
 * the most kept time; {@link #threads} says how many had any).
 *
 * <p>The time is that of {@link ThreadStates}, narrowed by the same {@link WaitFilter}: a lane
 * holds only its thread's kept instants, so the per-state sums of all lanes are the summary's
 * thread-seconds per state (when no lane is left out).
 */
public final class StateTimeline implements Serializable {
  public static final int MAX_BUCKETS = 1000;
  public static final int MAX_LANES = 64;
  /** A bucket in which the thread has no kept time. */
  public static final byte NONE = -1;

  private static final int STATES = ThreadState.values().length;

  /**
   * @param states per bucket, the ordinal of the {@link ThreadState} with the most of the
   *     thread's kept time in it (the lower ordinal on a tie), or {@link #NONE}
   * @param byStateNs the thread's kept ns per state over the whole axis
   */
  public record Lane(int tid, byte[] states, double[] byStateNs) implements Serializable {}

  /** Trace-clock start of the first bucket. */
  public final long startNs;
  public final long bucketNs;
  public final int buckets;
  /** The lanes shown, by tid. */
  public final List<Lane> lanes;
  /** Threads with kept time, shown or not. */
  public final int threads;

  private StateTimeline(long startNs, long bucketNs, int buckets, List<Lane> lanes, int threads) {
    this.startNs = startNs;
    this.bucketNs = bucketNs;
    this.buckets = buckets;
    this.lanes = lanes;
    this.threads = threads;
  }

  /**
   * The lanes of a process, from the same replay and filter as {@link ThreadStates#compute};
   * null when the filter keeps none of its threads' time.
   */
  public static StateTimeline compute(ThreadMarks marks, long spanStartNs, long spanEndNs,
      long traceEndNs, WaitFilter filter) {
    return compute(ThreadStates.replay(marks, traceEndNs), spanStartNs, spanEndNs, filter);
  }

  /** The same from a replay that {@link ThreadStates#compute} may share. */
  public static StateTimeline compute(ThreadStates.Replayed replayed, long spanStartNs,
      long spanEndNs, WaitFilter filter) {
    ThreadStates.Pieces pieces = replayed.pieces();
    // The summary's sweep when it keeps the same instants; else one of its own (cpus 0: the
    // scratch summary's CPU-wait split is not needed here).
    Sweep sweep = replayed.sweepFor(filter);
    if (sweep == null) {
      sweep = new Sweep(pieces, spanStartNs, spanEndNs, filter, new ThreadStateSummary(), 0);
    }
    Sweep kept = sweep;
    return of(pieces, filter, new Kept() {
      @Override
      public double of(int piece) {
        return kept.keptOf(piece);
      }

      @Override
      public double within(int piece, long from, long to) {
        return kept.keptWithin(piece, from, to);
      }
    }, MAX_BUCKETS, MAX_LANES);
  }

  /** The kept time of pieces and of parts of them. */
  interface Kept {
    /** The kept time of a whole piece. */
    double of(int piece);

    /** The kept time of [from, to), within a piece. */
    double within(int piece, long from, long to);
  }

  /**
   * @param kept H(t): the kept instants before t (t itself where nothing is narrowed), so the
   *     kept time of [a, b) is kept(b) - kept(a)
   */
  static StateTimeline of(ThreadStates.Pieces p, WaitFilter f, LongToDoubleFunction kept,
      int maxBuckets, int maxLanes) {
    return of(p, f, new Kept() {
      @Override
      public double of(int piece) {
        return kept.applyAsDouble(p.end[piece]) - kept.applyAsDouble(p.start[piece]);
      }

      @Override
      public double within(int piece, long from, long to) {
        return kept.applyAsDouble(to) - kept.applyAsDouble(from);
      }
    }, maxBuckets, maxLanes);
  }

  static StateTimeline of(ThreadStates.Pieces p, WaitFilter f, Kept kept, int maxBuckets,
      int maxLanes) {
    // The axis: from the first to the last kept piece, within the hull of the --time ranges.
    Map<Integer, double[]> totals = new HashMap<>();
    double[] ofTid = null;
    int lastTid = 0;
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (int i = 0; i < p.count; i++) {
      if (!keeps(p, i, f)) {
        continue;
      }
      double ns = kept.of(i);
      if (ns <= 0) {
        continue;
      }
      // Pieces come thread by thread: look a thread up once per run of its pieces.
      if (ofTid == null || p.tid[i] != lastTid) {
        lastTid = p.tid[i];
        ofTid = totals.computeIfAbsent(lastTid, t -> new double[STATES]);
      }
      ofTid[p.state[i]] += ns;
      lo = Math.min(lo, p.start[i]);
      hi = Math.max(hi, p.end[i]);
    }
    long[] ranges = f.timeRanges();
    if (ranges != null && ranges.length >= 2) {
      lo = Math.max(lo, ranges[0]);
      hi = Math.min(hi, ranges[ranges.length - 1]);
    }
    if (totals.isEmpty() || hi <= lo) {
      return null;
    }
    if (hi - lo < 0) {
      // The pieces span more than 292 years: some time is impossible. Keep the axis computable
      // (its latest Long.MAX_VALUE ns) rather than fail the analysis on a page's picture.
      lo = hi - Long.MAX_VALUE;
    }
    long span = hi - lo;
    long width = bucketWidth(span, maxBuckets);
    int n = (int) ((span - 1) / width + 1); // ceil(span / width) without overflow

    List<Integer> shown = new ArrayList<>(totals.keySet());
    shown.sort(Comparator.comparingDouble((Integer t) -> -sum(totals.get(t)))
        .thenComparing(t -> t));
    shown = new ArrayList<>(shown.subList(0, Math.min(maxLanes, shown.size())));
    shown.sort(null);
    Map<Integer, Integer> laneOf = new HashMap<>();
    Integer lane = null;
    for (int l = 0; l < shown.size(); l++) {
      laneOf.put(shown.get(l), l);
    }
    double[][] byBucket = new double[shown.size()][n * STATES];
    for (int i = 0; i < p.count; i++) {
      if (i == 0 || p.tid[i] != p.tid[i - 1]) {
        lane = laneOf.get(p.tid[i]);
      }
      Integer l = lane;
      if (l == null || !keeps(p, i, f)) {
        continue;
      }
      long a = Math.max(p.start[i], lo);
      long b = Math.min(p.end[i], hi);
      // k * width < span for k < n, so lo + k * width does not overflow; the last bucket ends
      // at hi.
      for (int k = (int) ((a - lo) / width); k < n && lo + k * width < b; k++) {
        long from = Math.max(a, lo + k * width);
        long to = k + 1 == n ? b : Math.min(b, lo + (k + 1) * width);
        double ns = kept.within(i, from, to);
        if (ns > 0) {
          byBucket[l][k * STATES + p.state[i]] += ns;
        }
      }
    }
    List<Lane> lanes = new ArrayList<>();
    for (int l = 0; l < shown.size(); l++) {
      lanes.add(new Lane(shown.get(l), dominant(byBucket[l], n), totals.get(shown.get(l))));
    }
    return new StateTimeline(lo, width, n, List.copyOf(lanes), totals.size());
  }

  private static boolean keeps(ThreadStates.Pieces p, int i, WaitFilter f) {
    return f.keepsThread(p.tid[i]) && f.keepsCpu(p.cpu[i]);
  }

  /** The smallest of 1, 2, 5 x 10^k ns that covers the span in at most max buckets. */
  static long bucketWidth(long span, int max) {
    long need = (span - 1) / max + 1; // ceil(span / max) without overflow (span > 0)
    for (long scale = 1; scale <= Long.MAX_VALUE / 50; scale *= 10) {
      for (long m : new long[] {1, 2, 5}) {
        if (m * scale >= need) {
          return m * scale;
        }
      }
    }
    return need; // beyond 10^17 ns: no round width needed
  }

  private static byte[] dominant(double[] byBucket, int n) {
    byte[] out = new byte[n];
    for (int k = 0; k < n; k++) {
      int best = NONE;
      double most = 0;
      for (int s = 0; s < STATES; s++) {
        if (byBucket[k * STATES + s] > most) {
          most = byBucket[k * STATES + s];
          best = s;
        }
      }
      out[k] = (byte) best;
    }
    return out;
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }

  /** Threads with kept time that have no lane. */
  public int leftOut() {
    return threads - lanes.size();
  }
}
