package dev.loadprof.load;

import dev.loadprof.model.TraceEventSink;
import java.io.Serializable;
import java.util.Set;
import java.util.TreeSet;

/**
 * perf's sample filters --tid, --cpu and --time: which samples go into the profile, functions
 * and folded outputs. They select samples after their load is known; the load itself is always
 * counted over all the process's threads, on all CPUs, at every instant, and the histograms and
 * load timeline stay whole (as with --load).
 *
 * @param tids threads to keep; null or empty = all
 * @param cpus CPUs to keep; null or empty = all
 * @param time a {@link TimeRanges} spec; null = the whole run
 */
public record SampleSelection(Set<Integer> tids, Set<Integer> cpus, String time)
    implements Serializable {
  public SampleSelection {
    tids = tids == null || tids.isEmpty() ? null : Set.copyOf(tids);
    cpus = cpus == null || cpus.isEmpty() ? null : Set.copyOf(cpus);
    time = time == null || time.isBlank() ? null : time.strip();
    if (time != null) {
      TimeRanges.parse(time); // fail early on a bad spec
    }
  }

  public static final SampleSelection ALL = new SampleSelection(null, null, null);

  public boolean isAll() {
    return tids == null && cpus == null && time == null;
  }

  /**
   * The selection for one run.
   *
   * @param cpuLanes true when the run's blocks are per CPU (a sample's CPU is its block's);
   *     false for a per-thread recording, whose samples say their CPU only if it was recorded
   *     with --sample-cpu: --cpu selects none of the others
   */
  public Selector forRun(long runStartNs, long runEndNs, boolean cpuLanes) {
    long[] ranges = time == null ? null : TimeRanges.parse(time).resolve(runStartNs, runEndNs);
    return new Selector(tids, cpus, cpuLanes, ranges);
  }

  /** The CPUs of a list as perf's -C takes it, such as 0,2-3. */
  public static Set<Integer> parseCpus(String text) {
    Set<Integer> out = new TreeSet<>();
    for (String item : text.split(",", -1)) {
      String[] ends = item.strip().split("-", -1);
      try {
        int from = Integer.parseInt(ends[0].strip());
        int to = ends.length == 2 ? Integer.parseInt(ends[1].strip()) : from;
        if (ends.length > 2 || from < 0 || to < from || to - from > 65_536) {
          throw new NumberFormatException();
        }
        for (int c = from; c <= to; c++) {
          out.add(c);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + text + "' is not a list of CPUs; give numbers"
            + " and ranges as perf's -C takes them, e.g. -C 0 or -C 0,2-3");
      }
    }
    return out;
  }

  /** What the selection says, e.g. "--tid 12,13 --time 10%-20%", or "" when it is all. */
  public String describe() {
    StringBuilder s = new StringBuilder();
    if (tids != null) {
      s.append("--tid ").append(join(tids));
    }
    if (cpus != null) {
      s.append(s.isEmpty() ? "" : " ").append("--cpu ").append(join(cpus));
    }
    if (time != null) {
      s.append(s.isEmpty() ? "" : " ").append("--time ").append(time);
    }
    return s.toString();
  }

  private static String join(Set<Integer> values) {
    StringBuilder s = new StringBuilder();
    for (int v : new TreeSet<>(values)) {
      s.append(s.isEmpty() ? "" : ",").append(v);
    }
    return s.toString();
  }

  /** The selection resolved for one run. */
  public static final class Selector {
    private final Set<Integer> tids;
    private final Set<Integer> cpus;
    private final boolean cpuLanes;
    private final long[] timeRanges;

    Selector(Set<Integer> tids, Set<Integer> cpus, boolean cpuLanes, long[] timeRanges) {
      this.tids = tids;
      this.cpus = cpus;
      this.cpuLanes = cpuLanes;
      this.timeRanges = timeRanges;
    }

    /**
     * @param laneCpu the CPU of the sample's block (a thread id for thread lanes)
     * @param sampleCpu the sample's own CPU column, UNKNOWN_ID when the trace has none
     */
    public boolean selects(int tid, int laneCpu, int sampleCpu, long timeNs) {
      int cpu = cpuLanes ? laneCpu : sampleCpu;
      return (tids == null || tids.contains(tid))
          && (cpus == null || (cpu != TraceEventSink.UNKNOWN_ID && cpus.contains(cpu)))
          && (timeRanges == null || TimeRanges.contains(timeRanges, timeNs));
    }
  }

  /** A selector that keeps every sample. */
  public static final Selector EVERY_SAMPLE = new Selector(null, null, true, null);
}
