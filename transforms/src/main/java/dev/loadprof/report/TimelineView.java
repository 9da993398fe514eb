package dev.loadprof.report;

import dev.loadprof.profile.LoadTimeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A process's load timeline as the outputs show it: contiguous buckets from the first to the
 * last one held (empty buckets are zeros), and the sampled CPU ns per bucket of a few named
 * functions (the top of the function table), which mark the process's phases.
 *
 * @param startNs trace-clock start of the first bucket
 * @param threadNs per bucket: thread-ns on a CPU, so average load in the bucket = threadNs /
 *     bucketNs
 * @param busyNs per bucket: ns at load >= 1
 * @param maxLoad per bucket: highest load
 */
public record TimelineView(long bucketNs, long startNs, long[] threadNs, long[] busyNs,
    long[] maxLoad, List<Phase> phases) {

  /** Where one function's samples fall: its sampled CPU ns per bucket. */
  public record Phase(String name, long[] cpuNs) {}

  /** How many of the top functions get a phase row. */
  public static final int PHASES = 5;

  /** Null when the timeline is empty (no run intervals, e.g. a group's sum). */
  public static TimelineView of(LoadTimeline t, List<FunctionRow> topFunctions) {
    if (t == null || t.isEmpty()) {
      return null;
    }
    long first = t.buckets.firstKey();
    int n = (int) (t.buckets.lastKey() - first + 1);
    long[] thread = new long[n];
    long[] busy = new long[n];
    long[] max = new long[n];
    List<Phase> phases = new ArrayList<>();
    for (FunctionRow f : topFunctions.subList(0, Math.min(PHASES, topFunctions.size()))) {
      phases.add(new Phase(f.name(), new long[n]));
    }
    for (Map.Entry<Long, LoadTimeline.Bucket> e : t.buckets.entrySet()) {
      int i = (int) (e.getKey() - first);
      LoadTimeline.Bucket b = e.getValue();
      thread[i] = b.threadNs;
      busy[i] = b.busyNs;
      max[i] = b.maxLoad;
      for (Phase p : phases) {
        p.cpuNs()[i] = b.functionCpuNs.getOrDefault(p.name(), 0L);
      }
    }
    return new TimelineView(t.bucketNs(), first * t.bucketNs(), thread, busy, max, phases);
  }
}
