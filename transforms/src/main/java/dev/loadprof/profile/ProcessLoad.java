package dev.loadprof.profile;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.wall.StateTimeline;
import dev.loadprof.wall.ThreadStateSummary;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The load figures of one process in one run. Sample-based arrays are indexed by load k (the
 * number of this process's threads on a CPU at the sample's instant, k >= 1). timeAtLoadNs is exact
 * wall time from the run intervals, indexed k = 0..max, over the process's span in the trace.
 */
public final class ProcessLoad implements Serializable {
  public String runId = "";
  public int pid;
  public String comm = "";
  public long samples;
  public long cpuNs;
  public long[] samplesAtLoad = new long[0];
  public long[] cpuNsAtLoad = new long[0];
  public long[] timeAtLoadNs = new long[0];
  /** First and last instant at which a thread of the process ran. */
  public long spanStartNs;
  public long spanEndNs;
  /** Per-process health counters (e.g. samples_contradicted), named as in TraceHealth. */
  public java.util.TreeMap<String, Long> health = new java.util.TreeMap<>();
  /** Load over time in buckets, from the run intervals; empty when not known (e.g. group sums). */
  public LoadTimeline timeline = new LoadTimeline();
  /**
   * Where the process's wall time went while its threads were not running, or null when not
   * known (hand-made figures, group sums).
   */
  public ThreadStateSummary threadStates;
  /** Its threads' states over time for report.html, narrowed alike; null when not known. */
  public StateTimeline stateTimeline;
  /** Its critical path (dev.loadprof.critical), or null when not computed for it. */
  public CriticalPath criticalPath;

  /** Real time from samples: the sum over k of cpuNsAtLoad[k] / k. */
  public double wallNs() {
    double wall = 0;
    for (int k = 1; k < cpuNsAtLoad.length; k++) {
      wall += (double) cpuNsAtLoad[k] / k;
    }
    return wall;
  }

  /** CPU time per unit of real time: how many of its threads ran on average while it ran. */
  public double avgLoad() {
    double wall = wallNs();
    return wall == 0 ? 0 : cpuNs / wall;
  }

  /** Fraction of CPU time at load k (k >= 1). */
  public double cpuFraction(int k) {
    return cpuNs == 0 || k >= cpuNsAtLoad.length ? 0 : (double) cpuNsAtLoad[k] / cpuNs;
  }

  /** Fraction of real time at load k (k >= 1). */
  public double realFraction(int k) {
    double wall = wallNs();
    return wall == 0 || k >= cpuNsAtLoad.length ? 0 : cpuNsAtLoad[k] / (double) k / wall;
  }

  /** The same figures under another name (shared, not copied: neither is changed after). */
  public ProcessLoad withComm(String name) {
    ProcessLoad p = new ProcessLoad();
    p.runId = runId;
    p.pid = pid;
    p.comm = name;
    p.samples = samples;
    p.cpuNs = cpuNs;
    p.samplesAtLoad = samplesAtLoad;
    p.cpuNsAtLoad = cpuNsAtLoad;
    p.timeAtLoadNs = timeAtLoadNs;
    p.spanStartNs = spanStartNs;
    p.spanEndNs = spanEndNs;
    p.health = health;
    p.timeline = timeline;
    p.threadStates = threadStates;
    p.stateTimeline = stateTimeline;
    p.criticalPath = criticalPath;
    return p;
  }

  @Override
  public String toString() {
    return runId + "/" + pid + "(" + comm + ") samples=" + samples + " cpu=" + cpuNs
        + " cpuAtLoad=" + Arrays.toString(cpuNsAtLoad) + " timeAtLoad="
        + Arrays.toString(timeAtLoadNs);
  }
}
