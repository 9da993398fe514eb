package dev.loadprof.profile;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process's load over time, in buckets: per bucket the exact thread-ns on a CPU (the integral
 * of the load), the ns at load >= 1, the highest load, and each leaf function's sampled CPU ns.
 *
 * <p>Buckets are {@link #BASE_NS} * 2^level wide and aligned to multiples of their width on the
 * trace clock; the level is the smallest that covers everything the timeline holds in at most
 * {@link #MAX_BUCKETS} buckets. That level depends only on the first and last instant held, so
 * partial timelines of any windows, merged in any order, end with the same buckets and the same
 * integer sums: the result is independent of --window and of the runner.
 */
public final class LoadTimeline implements Serializable {
  public static final long BASE_NS = 1_000_000L;
  public static final int MAX_BUCKETS = 256;

  /** Figures of one bucket; all sums of integers, or a max. */
  public static final class Bucket implements Serializable {
    public long threadNs;
    public long busyNs;
    public int maxLoad;
    /** Leaf symbol -> sampled CPU ns. */
    public HashMap<String, Long> functionCpuNs = new HashMap<>();

    void mergeFrom(Bucket o) {
      threadNs += o.threadNs;
      busyNs += o.busyNs;
      maxLoad = Math.max(maxLoad, o.maxLoad);
      o.functionCpuNs.forEach((k, v) -> functionCpuNs.merge(k, v, Long::sum));
    }
  }

  /** Width of a bucket is BASE_NS << level. */
  public int level;
  /** First and last base-width bucket index held; min > max while empty. */
  public long minBaseIndex = Long.MAX_VALUE;
  public long maxBaseIndex = Long.MIN_VALUE;
  /** Bucket index (at the current level) -> figures. */
  public TreeMap<Long, Bucket> buckets = new TreeMap<>();

  public long bucketNs() {
    return BASE_NS << level;
  }

  public boolean isEmpty() {
    return buckets.isEmpty();
  }

  /** The process was at {@code load} >= 1 over [start, end). */
  public void addLoad(long start, long end, int load) {
    if (end <= start || load <= 0) {
      return;
    }
    cover(start, end - 1);
    long width = bucketNs();
    long t = start;
    while (t < end) {
      long index = Math.floorDiv(t, width);
      long bucketEnd = (index + 1) * width;
      long part = Math.min(end, bucketEnd) - t;
      Bucket b = bucket(index);
      b.threadNs += part * load;
      b.busyNs += part;
      b.maxLoad = Math.max(b.maxLoad, load);
      t += part;
    }
  }

  /** A sample at {@code timeNs} whose leaf function is {@code symbol}. */
  public void addSample(long timeNs, String symbol, long cpuNs) {
    cover(timeNs, timeNs);
    bucket(Math.floorDiv(timeNs, bucketNs())).functionCpuNs.merge(symbol, cpuNs, Long::sum);
  }

  public LoadTimeline mergeFrom(LoadTimeline o) {
    if (o.isEmpty()) {
      return this;
    }
    minBaseIndex = Math.min(minBaseIndex, o.minBaseIndex);
    maxBaseIndex = Math.max(maxBaseIndex, o.maxBaseIndex);
    int target = Math.max(Math.max(level, o.level), levelNeeded());
    coarsenTo(target);
    for (Map.Entry<Long, Bucket> e : o.buckets.entrySet()) {
      long index = e.getKey() >> (target - o.level);
      bucket(index).mergeFrom(e.getValue());
    }
    return this;
  }

  /** Makes the held range include [first, last], coarsening when it would need too many. */
  private void cover(long first, long last) {
    minBaseIndex = Math.min(minBaseIndex, Math.floorDiv(first, BASE_NS));
    maxBaseIndex = Math.max(maxBaseIndex, Math.floorDiv(last, BASE_NS));
    int needed = levelNeeded();
    if (needed > level) {
      coarsenTo(needed);
    }
  }

  private int levelNeeded() {
    int l = 0;
    while ((maxBaseIndex >> l) - (minBaseIndex >> l) + 1 > MAX_BUCKETS) {
      l++;
    }
    return l;
  }

  private void coarsenTo(int target) {
    if (target <= level) {
      return;
    }
    TreeMap<Long, Bucket> coarse = new TreeMap<>();
    for (Map.Entry<Long, Bucket> e : buckets.entrySet()) {
      long index = e.getKey() >> (target - level);
      Bucket b = coarse.get(index);
      if (b == null) {
        coarse.put(index, e.getValue());
      } else {
        b.mergeFrom(e.getValue());
      }
    }
    buckets = coarse;
    level = target;
  }

  private Bucket bucket(long index) {
    Bucket b = buckets.get(index);
    if (b == null) {
      b = new Bucket();
      buckets.put(index, b);
    }
    return b;
  }
}
