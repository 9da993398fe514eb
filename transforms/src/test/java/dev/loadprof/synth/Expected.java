package dev.loadprof.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The exact answers for a {@link SyntheticTrace}, computed from its ground-truth run intervals
 * and its sample instants, never by parsing text. Two kinds of figures are kept per process:
 *
 * <ul>
 *   <li><b>true</b> (interval) figures: wall time at each load k, CPU time and load-weighted real
 *       time per function integrated over the exact intervals;
 *   <li><b>sampled</b> figures: what an ideal profiler computes from the samples, each sample
 *       weighing period / load, with load the true number of the process's threads running at the
 *       sample's instant. These differ from the true ones by sampling granularity only.
 * </ul>
 *
 * Load k at an instant t is the number of the process's run intervals [start, end) containing t.
 */
public final class Expected {
  public final int cpus;
  public final long samplePeriodNs;
  public final long windowStartNs;
  public final long windowEndNs;

  // Record counts of the text, one per record (a record with a stack is one record).
  /** cpu-clock records, including idle (swapper) ones. */
  public final long sampleRecords;
  /** cpu-clock records of the idle task (only with idleSamples). */
  public final long idleSamples;
  /** sched_switch records printed. */
  public final long switchRecords;
  /** Context switches that really happened (from the intervals). */
  public final long trueSwitches;
  /** Of trueSwitches, the "swapper ==> task" ones deleted by dropIdleToTaskSwitches. */
  public final long droppedIdleToTaskSwitches;
  /** Of trueSwitches, those not printed because of switchSamplingPeriod. */
  public final long switchesLostToSampling;
  /**
   * Printed switches whose prev is not the previous printed switch's next on that CPU (the
   * first switch of a CPU is compared with swapper: every CPU is idle when the window opens).
   */
  public final long chainBreaks;
  public final long wakeupRecords;
  /** PERF_RECORD_COMM/FORK/EXIT lines, including the time-0 lines perf synthesizes. */
  public final long taskRecords;
  /** Per pid, in pid order: the main process and any noise processes. */
  public final Map<Integer, ProcessFigures> processes;

  private Expected(Accumulator a) {
    cpus = a.trace.cpus();
    samplePeriodNs = a.trace.samplePeriodNs();
    windowStartNs = a.trace.windowStartNs();
    windowEndNs = a.trace.windowEndNs();
    sampleRecords = a.sampleRecords;
    idleSamples = a.idleSamples;
    switchRecords = a.switchRecords;
    trueSwitches = a.trueSwitches;
    droppedIdleToTaskSwitches = a.droppedIdleToTask;
    switchesLostToSampling = a.trueSwitches - a.droppedIdleToTask - a.switchRecords;
    chainBreaks = a.chainBreaks;
    wakeupRecords = a.wakeupRecords;
    taskRecords = a.taskRecords;
    Map<Integer, ProcessFigures> map = new TreeMap<>();
    a.figures.forEach((pid, f) -> map.put(pid, f));
    processes = Collections.unmodifiableMap(map);
  }

  public ProcessFigures process(int pid) {
    ProcessFigures f = processes.get(pid);
    if (f == null) {
      throw new IllegalArgumentException("no process " + pid + " in " + processes.keySet());
    }
    return f;
  }

  /** The figures of one process. Maps are keyed by function name, sorted. */
  public static final class ProcessFigures {
    public final int pid;
    public final String comm;
    /** First switch-in and last switch-out of any of its threads. */
    public final long spanStartNs;
    public final long spanEndNs;
    /** Exact wall ns inside the span during which exactly k threads ran (index k, from 0). */
    public final long[] wallNsAtLoad;
    /** Sum of run interval lengths. */
    public final long trueCpuNs;
    public final Map<String, Long> trueCpuNsByFunction = new TreeMap<>();
    /** Integral over the intervals of 1 / load(t): each instant's wall time shared among the
     * threads running then. Sums to the wall time at load >= 1. */
    public final Map<String, Double> trueRealNsByFunction = new TreeMap<>();
    public long samples;
    public final Map<String, Long> samplesByFunction = new TreeMap<>();
    /** Sample count x period. */
    public final Map<String, Long> sampledCpuNsByFunction = new TreeMap<>();
    /** Sum over samples of period / load-at-sample. */
    public final Map<String, Double> sampledRealNsByFunction = new TreeMap<>();
    /** Samples (and their period sum) by load-at-sample k, index k. */
    public long[] samplesAtLoad;
    public long[] cpuNsAtLoad;

    // The load step function: load[i] holds on [times[i], times[i + 1]).
    private final long[] times;
    private final int[] loads;

    ProcessFigures(int pid, String comm, List<Interval> intervals) {
      this.pid = pid;
      this.comm = comm;
      // Sweep boundaries: +1 at a start, -1 at an end, per function.
      int n = intervals.size();
      long[][] bounds = new long[2 * n][];
      for (int i = 0; i < n; i++) {
        Interval iv = intervals.get(i);
        bounds[2 * i] = new long[] {iv.startNs(), +1, i};
        bounds[2 * i + 1] = new long[] {iv.endNs(), -1, i};
      }
      Arrays.sort(bounds, (x, y) -> Long.compare(x[0], y[0]));
      List<Long> ts = new ArrayList<>();
      List<Integer> ls = new ArrayList<>();
      Map<String, Integer> active = new TreeMap<>();
      int load = 0;
      int maxLoad = 0;
      long cpu = 0;
      for (Interval iv : intervals) {
        cpu += iv.lengthNs();
        trueCpuNsByFunction.merge(iv.function(), iv.lengthNs(), Long::sum);
      }
      this.trueCpuNs = cpu;
      long[] wall = new long[Math.max(2, n + 1)];
      int i = 0;
      while (i < bounds.length) {
        long t = bounds[i][0];
        while (i < bounds.length && bounds[i][0] == t) {
          Interval iv = intervals.get((int) bounds[i][2]);
          load += (int) bounds[i][1];
          active.merge(iv.function(), (int) bounds[i][1], Integer::sum);
          i++;
        }
        ts.add(t);
        ls.add(load);
        maxLoad = Math.max(maxLoad, load);
        if (i < bounds.length) {
          long dt = bounds[i][0] - t;
          wall[load] += dt;
          if (load > 0) {
            for (Map.Entry<String, Integer> e : active.entrySet()) {
              if (e.getValue() > 0) {
                trueRealNsByFunction.merge(e.getKey(), (double) e.getValue() * dt / load,
                    Double::sum);
              }
            }
          }
        }
      }
      spanStartNs = n == 0 ? 0 : bounds[0][0];
      spanEndNs = n == 0 ? 0 : bounds[bounds.length - 1][0];
      wallNsAtLoad = Arrays.copyOf(wall, maxLoad + 1);
      samplesAtLoad = new long[maxLoad + 1];
      cpuNsAtLoad = new long[maxLoad + 1];
      times = ts.stream().mapToLong(Long::longValue).toArray();
      loads = ls.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The true number of this process's threads running at instant t. */
    public int loadAt(long timeNs) {
      int idx = Arrays.binarySearch(times, timeNs);
      if (idx < 0) {
        idx = -idx - 2;
      }
      return idx < 0 ? 0 : loads[idx];
    }

    public long spanNs() {
      return spanEndNs - spanStartNs;
    }

    public long wallNsAtLoad(int k) {
      return k < wallNsAtLoad.length ? wallNsAtLoad[k] : 0;
    }

    /** Wall time during which at least one thread ran. */
    public long busyWallNs() {
      return spanNs() - wallNsAtLoad(0);
    }

    /** Of the busy wall time, the part with exactly one thread running. */
    public double serialFraction() {
      long busy = busyWallNs();
      return busy == 0 ? 0 : (double) wallNsAtLoad(1) / busy;
    }

    public long sampledCpuNs() {
      return sampledCpuNsByFunction.values().stream().mapToLong(Long::longValue)
          .sum();
    }

    public double sampledRealNs() {
      return sampledRealNsByFunction.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Share of the process's sampled CPU time spent in the function (0..1). */
    public double cpuShare(String function) {
      long total = sampledCpuNs();
      return total == 0 ? 0 : (double) sampledCpuNsByFunction.getOrDefault(function, 0L) / total;
    }

    /** Share of the process's sampled real (load-weighted) time spent in the function (0..1). */
    public double realShare(String function) {
      double total = sampledRealNs();
      return total == 0 ? 0 : sampledRealNsByFunction.getOrDefault(function, 0.0) / total;
    }

    public double trueCpuShare(String function) {
      return trueCpuNs == 0 ? 0
          : (double) trueCpuNsByFunction.getOrDefault(function, 0L) / trueCpuNs;
    }

    public double trueRealShare(String function) {
      double total = trueRealNsByFunction.values().stream().mapToDouble(Double::doubleValue).sum();
      return total == 0 ? 0 : trueRealNsByFunction.getOrDefault(function, 0.0) / total;
    }

    @Override
    public String toString() {
      return "ProcessFigures{pid=" + pid + ", comm=" + comm + ", span=" + spanNs()
          + ", wallNsAtLoad=" + Arrays.toString(wallNsAtLoad) + ", samplesByFunction="
          + samplesByFunction + ", sampledRealNsByFunction=" + sampledRealNsByFunction + "}";
    }
  }

  /** Counts the records of one emission pass; see {@link SyntheticTrace#expected()}. */
  static final class Accumulator implements RecordSink {
    private final SyntheticTrace trace;
    private final Map<Integer, ProcessFigures> figures = new HashMap<>();
    private final int[] lastNextTid;
    long sampleRecords;
    long idleSamples;
    long switchRecords;
    long trueSwitches;
    long droppedIdleToTask;
    long chainBreaks;
    long wakeupRecords;
    long taskRecords;

    Accumulator(SyntheticTrace trace, List<Interval> intervals) {
      this.trace = trace;
      lastNextTid = new int[trace.cpus()];
      // Every CPU is idle when the window opens: a consistent chain starts at swapper (tid 0).
      Arrays.fill(lastNextTid, 0);
      Map<Integer, List<Interval>> byPid = new TreeMap<>();
      Map<Integer, String> comms = new HashMap<>();
      for (Interval iv : intervals) {
        // Before its exec the main thread is perf's exec stub: another process of the pid.
        long start = Math.max(iv.startNs(), iv.thread().execNs);
        if (start >= iv.endNs()) {
          continue;
        }
        Interval part = start == iv.startNs() ? iv : new Interval(iv.cpu(), iv.thread(), start,
            iv.endNs(), iv.function(), iv.endState());
        byPid.computeIfAbsent(iv.thread().pid, p -> new ArrayList<>()).add(part);
        if (iv.thread().pid == iv.thread().tid) {
          comms.put(iv.thread().pid, iv.thread().comm);
        }
      }
      byPid.forEach((pid, ivs) -> figures.put(pid,
          new ProcessFigures(pid, comms.getOrDefault(pid, "?"), ivs)));
      countTrueSwitches(intervals);
    }

    /** Replays the switch rule of SyntheticTrace (intervals are sorted by cpu, start). */
    private void countTrueSwitches(List<Interval> intervals) {
      Interval last = null;
      for (Interval iv : intervals) {
        if (last != null && last.cpu() != iv.cpu()) {
          trueSwitches++; // final switch-out of the previous CPU
          last = null;
        }
        if (last != null && last.endNs() == iv.startNs()) {
          if (last.thread() != iv.thread()) {
            trueSwitches++;
          }
        } else {
          trueSwitches += last == null ? 1 : 2;
          if (trace.dropsIdleToTaskOn(iv.cpu())) {
            droppedIdleToTask++;
          }
        }
        last = iv;
      }
      if (last != null) {
        trueSwitches++;
      }
    }

    @Override
    public void preamble(String comm, String text) {
      taskRecords++;
    }

    @Override
    public void sample(long timeNs, int cpu, SynthThread thread, String function) {
      sampleRecords++;
      if (thread == null) {
        idleSamples++;
        return;
      }
      if (timeNs < thread.execNs) {
        return; // a sample of the exec stub, not of the process
      }
      ProcessFigures f = figures.get(thread.pid);
      int load = f.loadAt(timeNs);
      if (load < 1) {
        throw new IllegalStateException("sample outside the process's intervals at " + timeNs);
      }
      long period = trace.samplePeriodNs();
      f.samples++;
      f.samplesByFunction.merge(function, 1L, Long::sum);
      f.sampledCpuNsByFunction.merge(function, period, Long::sum);
      f.sampledRealNsByFunction.merge(function, (double) period / load, Double::sum);
      f.samplesAtLoad[load]++;
      f.cpuNsAtLoad[load] += period;
    }

    @Override
    public void schedSwitch(long timeNs, int cpu, SynthThread prev, char prevState,
        boolean prevExited, SynthThread next, long period) {
      switchRecords++;
      int prevTid = prev == null ? 0 : prev.tid;
      if (lastNextTid[cpu] != prevTid) {
        chainBreaks++;
      }
      lastNextTid[cpu] = next == null ? 0 : next.tid;
    }

    @Override
    public void wakeup(long timeNs, int cpu, SynthThread running, SynthThread woken,
        int targetCpu) {
      wakeupRecords++;
    }

    @Override
    public void task(long timeNs, int cpu, SynthThread header, String text) {
      taskRecords++;
    }

    Expected finish() {
      return new Expected(this);
    }
  }
}
