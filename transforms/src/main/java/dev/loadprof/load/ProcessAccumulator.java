package dev.loadprof.load;

import dev.loadprof.model.CallStack;
import dev.loadprof.profile.LoadTimeline;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.wall.ThreadMarks;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The partial result for one process of one run: load figures and weighted stacks over some
 * windows. Accumulators of different windows merge in any order and give the same result, because
 * every figure is an integer sum (or a min/max), never a float that depends on the order.
 */
public final class ProcessAccumulator implements Serializable {
  public String runId;
  public int pid;
  public long samples;
  public long[] samplesAtLoad = new long[2];
  public long[] cpuNsAtLoad = new long[2];
  /** Exact wall ns at load k >= 1 from run intervals; k = 0 is derived from the span. */
  public long[] timeAtLoadNs = new long[2];
  public long spanStartNs = Long.MAX_VALUE;
  public long spanEndNs = Long.MIN_VALUE;
  public TreeMap<String, Long> health = new TreeMap<>();
  /** (tid, load, stack) -> {count, cpuNs}. */
  public HashMap<LoadStack, long[]> stacks = new HashMap<>();
  /** Load over time from the same run intervals, and where each leaf function's samples fall. */
  public LoadTimeline timeline = new LoadTimeline();
  /** The threads' runs, switch-outs and wakeups: the whole-wall view is replayed from them. */
  public ThreadMarks threads = new ThreadMarks();

  /** Sums that overflowed 64 bits and were capped at Long.MAX_VALUE (a health counter). */
  public static final String SUMS_SATURATED = "sums_saturated";
  /** Samples --tid, --cpu or --time leave out of the stacks (still in the load figures). */
  public static final String SAMPLES_NOT_SELECTED = "samples_not_selected";

  public ProcessAccumulator(String runId, int pid) {
    this.runId = runId;
    this.pid = pid;
  }

  /**
   * A stack of one thread at a load: the key under which samples are summed. The thread is kept
   * for the profile's tid label; the text reports sum over threads.
   */
  public record LoadStack(int tid, int load, CallStack stack) implements Serializable {
    /**
     * The value a record's own hashCode gives (each component's hash, combined by 31), written
     * out: the record's goes through a method-handle chain, and the join hashes a key per sample.
     * The same value keeps the maps' iteration order, which the reports' ties may see.
     */
    @Override
    public int hashCode() {
      return (tid * 31 + load) * 31 + Objects.hashCode(stack);
    }

    @Override
    public boolean equals(Object o) {
      return o == this || o instanceof LoadStack k && tid == k.tid && load == k.load
          && Objects.equals(stack, k.stack);
    }
  }

  public void addSample(int tid, int load, long cpuNs, CallStack stack) {
    addSample(tid, load, cpuNs, stack, true);
  }

  /**
   * @param selected false for a sample that --tid, --cpu or --time leave out: it counts in the
   *     load figures but not in the stacks, and as {@link #SAMPLES_NOT_SELECTED}
   */
  public void addSample(int tid, int load, long cpuNs, CallStack stack, boolean selected) {
    samples++;
    samplesAtLoad = grow(samplesAtLoad, load);
    cpuNsAtLoad = grow(cpuNsAtLoad, load);
    samplesAtLoad[load]++;
    cpuNsAtLoad[load] = add(cpuNsAtLoad[load], cpuNs);
    if (!selected) {
      addHealth(SAMPLES_NOT_SELECTED, 1);
      return;
    }
    long[] w = stacks.computeIfAbsent(new LoadStack(tid, load, stack), k -> new long[2]);
    w[0]++;
    w[1] = add(w[1], cpuNs);
  }

  public void addTimeAtLoad(int load, long ns) {
    if (ns <= 0) {
      return;
    }
    timeAtLoadNs = grow(timeAtLoadNs, load);
    timeAtLoadNs[load] = add(timeAtLoadNs[load], ns);
  }

  public void extendSpan(long start, long end) {
    spanStartNs = Math.min(spanStartNs, start);
    spanEndNs = Math.max(spanEndNs, end);
  }

  public void addHealth(String counter, long delta) {
    if (delta != 0) {
      health.merge(counter, delta, Long::sum);
    }
  }

  public ProcessAccumulator mergeFrom(ProcessAccumulator o) {
    samples = add(samples, o.samples);
    samplesAtLoad = addInto(samplesAtLoad, o.samplesAtLoad);
    cpuNsAtLoad = addInto(cpuNsAtLoad, o.cpuNsAtLoad);
    timeAtLoadNs = addInto(timeAtLoadNs, o.timeAtLoadNs);
    spanStartNs = Math.min(spanStartNs, o.spanStartNs);
    spanEndNs = Math.max(spanEndNs, o.spanEndNs);
    o.health.forEach(this::addHealth);
    timeline.mergeFrom(o.timeline);
    threads.mergeFrom(o.threads);
    for (Map.Entry<LoadStack, long[]> e : o.stacks.entrySet()) {
      long[] w = stacks.computeIfAbsent(e.getKey(), k -> new long[2]);
      w[0] = add(w[0], e.getValue()[0]);
      w[1] = add(w[1], e.getValue()[1]);
    }
    return this;
  }

  /** The process's load figures; comm comes from the run's process names. */
  public ProcessLoad toProcessLoad(String comm) {
    ProcessLoad p = new ProcessLoad();
    p.runId = runId;
    p.pid = pid;
    p.comm = comm;
    p.samples = samples;
    int maxLoad = Math.max(lastNonZero(cpuNsAtLoad), lastNonZero(timeAtLoadNs));
    p.samplesAtLoad = Arrays.copyOf(samplesAtLoad, maxLoad + 1);
    p.cpuNsAtLoad = Arrays.copyOf(cpuNsAtLoad, maxLoad + 1);
    boolean[] overflowed = {false};
    p.cpuNs = sum(cpuNsAtLoad, overflowed);
    p.timeAtLoadNs = Arrays.copyOf(timeAtLoadNs, maxLoad + 1);
    if (spanEndNs >= spanStartNs) {
      p.spanStartNs = spanStartNs;
      p.spanEndNs = spanEndNs;
      long onCpu = sum(timeAtLoadNs, overflowed);
      // Inside its span, a process is at some load k >= 0 at every instant.
      p.timeAtLoadNs[0] = Math.max(0, (spanEndNs - spanStartNs) - onCpu);
    }
    p.health = new TreeMap<>(health);
    p.timeline = timeline;
    if (overflowed[0]) {
      p.health.merge(SUMS_SATURATED, 1L, Long::sum);
    }
    return p;
  }

  public List<StackWeight> toStackWeights() {
    List<StackWeight> out = new ArrayList<>(stacks.size());
    for (Map.Entry<LoadStack, long[]> e : stacks.entrySet()) {
      LoadStack k = e.getKey();
      out.add(new StackWeight(runId, pid, k.tid(), k.load(), k.stack(), e.getValue()[0],
          e.getValue()[1]));
    }
    return out;
  }

  private static int lastNonZero(long[] a) {
    for (int i = a.length - 1; i > 0; i--) {
      if (a[i] != 0) {
        return i;
      }
    }
    return 0;
  }

  private static long[] grow(long[] a, int index) {
    return index < a.length ? a : Arrays.copyOf(a, Math.max(index + 1, a.length * 2));
  }

  private long[] addInto(long[] a, long[] b) {
    long[] r = b.length > a.length ? Arrays.copyOf(a, b.length) : a;
    for (int i = 0; i < b.length; i++) {
      r[i] = add(r[i], b[i]);
    }
    return r;
  }

  /**
   * a + b, or Long.MAX_VALUE when that overflows, counted in {@link #SUMS_SATURATED}: a wrapped
   * sum would be a silently wrong (negative) figure; a capped one is flagged and warned about.
   */
  private long add(long a, long b) {
    long s = saturatedAdd(a, b);
    if (s != a + b) {
      addHealth(SUMS_SATURATED, 1);
    }
    return s;
  }

  static long saturatedAdd(long a, long b) {
    long s = a + b;
    if (((a ^ s) & (b ^ s)) < 0) { // both operands' sign differs from the sum's: overflow
      return b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return s;
  }

  /** The saturated sum of the values; overflowed[0] is set when it was capped. */
  private static long sum(long[] values, boolean[] overflowed) {
    long s = 0;
    for (long v : values) {
      long next = saturatedAdd(s, v);
      overflowed[0] |= next != s + v;
      s = next;
    }
    return s;
  }
}
