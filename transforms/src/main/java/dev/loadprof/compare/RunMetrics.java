package dev.loadprof.compare;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.ThreadState;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.SerialFraction;
import dev.loadprof.report.html.CriticalHtml;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of every run of an analysis, by run id. Processes are matched by name, not pid:
 * all pids of one name (in one group) are summed within a run. Per process: real time, CPU time,
 * average load, serial fraction, the exact time at each load and, where the trace has thread
 * states, the wall figures (span, CPU wait and its interference part, per-state thread time);
 * per function (leaf symbol, as
 * functions.txt): real time, CPU time and average load. The idle task (pid 0) is left out.
 * Ratios are absent when undefined (nothing ran).
 */
public final class RunMetrics {
  private RunMetrics() {}

  /**
   * @param groupOf the group of a process of a run, e.g. "" without grouping
   */
  public static Map<String, Map<SeriesKey, Double>> of(Analysis a, GroupOf groupOf) {
    return of(a, groupOf, p -> functionsOf(a, p));
  }

  /**
   * The same with each process's function figures from {@code functionsOf}: an analysis without
   * stacks (nightly's runs kept one by one) gives the figures its runs' analyses gave. A
   * process's figures are summed first, then the processes of a name: the same sums either way.
   */
  public static Map<String, Map<SeriesKey, Double>> of(Analysis a, GroupOf groupOf,
      FunctionsOf functionsOf) {
    Map<String, RunInfo> runs = new HashMap<>();
    for (RunInfo r : a.runs()) {
      runs.put(r.runId, r);
    }
    Map<String, Map<SeriesKey, Double>> out = new TreeMap<>();
    for (RunInfo r : a.runs()) {
      out.put(r.runId, new TreeMap<>());
    }
    // (run, group, comm) -> summed figures
    Map<String, Map<SeriesKey, Totals>> processes = new TreeMap<>();
    Map<String, Map<SeriesKey, double[]>> functions = new TreeMap<>();
    Map<String, Map<SeriesKey, Double>> critical = new TreeMap<>();
    for (ProcessLoad p : a.processes()) {
      if (p.pid == 0 || !runs.containsKey(p.runId)) {
        continue;
      }
      String comm = a.comm(p.runId, p.pid);
      String group = groupOf.groupOf(runs.get(p.runId), comm);
      SeriesKey entity = new SeriesKey(group, comm, null, Metric.REAL_TIME);
      processes.computeIfAbsent(p.runId, k -> new TreeMap<>())
          .computeIfAbsent(entity, k -> new Totals()).add(p);
      Map<SeriesKey, double[]> fns = functions.computeIfAbsent(p.runId, k -> new TreeMap<>());
      functionsOf.of(p).forEach((symbol, v) -> {
        double[] sum = fns.computeIfAbsent(new SeriesKey(group, comm, symbol, Metric.REAL_TIME),
            k -> new double[2]);
        sum[0] += v[0];
        sum[1] += v[1];
      });
      if (p.criticalPath != null && CriticalHtml.followsWakeUps(runs.get(p.runId))) {
        Map<SeriesKey, Double> onPath = critical.computeIfAbsent(p.runId, k -> new TreeMap<>());
        onPath.merge(entity.with(Metric.CRITICAL_TIME), (double) p.criticalPath.pathNs(),
            Double::sum);
        criticalFunctionsOf(p.criticalPath).forEach((fn, ns) -> onPath.merge(
            new SeriesKey(group, comm, fn, Metric.CRITICAL_TIME), ns, Double::sum));
      }
    }
    critical.forEach((run, figures) -> out.get(run).putAll(figures));
    processes.forEach((run, byEntity) -> byEntity.forEach(
        (entity, t) -> t.putInto(out.get(run), entity)));
    functions.forEach((run, byEntity) -> byEntity.forEach((entity, v) -> {
      Map<SeriesKey, Double> m = out.get(run);
      m.put(entity, v[0]);
      m.put(entity.with(Metric.CPU_TIME), v[1]);
      if (v[0] > 0) {
        m.put(entity.with(Metric.AVG_LOAD), v[1] / v[0]);
      }
    }));
    return out;
  }

  /**
   * A process's figures per function (leaf symbol, as functions.txt): {real ns, CPU ns}, by
   * symbol, from its stacks in the analysis.
   */
  public static Map<String, double[]> functionsOf(Analysis a, ProcessLoad p) {
    Map<String, double[]> out = new TreeMap<>();
    for (StackWeight s : a.filteredStacksOf(p)) {
      Frame[] stack = s.stack();
      if (stack.length == 0) {
        continue;
      }
      double[] v = out.computeIfAbsent(stack[0].symbol(), k -> new double[2]);
      v[0] += s.wallNs();
      v[1] += s.cpuNs();
    }
    return out;
  }

  /**
   * A path's time per function: each on-CPU stack's ns to its leaf symbol (as functions.txt and
   * {@link #functionsOf}), each wait's to a name of the wait ("[blocked: timer]", "[waiting for
   * a CPU: own threads]", "[waiting for a CPU: process X]"), so that every ns of the path is in
   * exactly one of them and a longer wait on the path is named as a function would be.
   */
  static Map<String, Double> criticalFunctionsOf(CriticalPath path) {
    Map<String, Double> out = new TreeMap<>();
    for (CriticalPath.StackOnPath s : path.stacks()) {
      Frame[] stack = s.stack().frames();
      out.merge(stack.length == 0 ? "[unknown]" : stack[0].symbol(), (double) s.ns(),
          Double::sum);
    }
    for (CriticalPath.WaitOnPath w : path.waits()) {
      String name = CriticalHtml.waitName(w.kind(), w.reason());
      out.merge(name, (double) w.ns(), Double::sum);
    }
    return out;
  }

  /** Where a process's function figures come from ({@link #functionsOf(Analysis, ProcessLoad)}). */
  @FunctionalInterface
  public interface FunctionsOf {
    Map<String, double[]> of(ProcessLoad p);
  }

  /** How a process of a run is grouped; GroupBy's rule or a fixed benchmark name. */
  @FunctionalInterface
  public interface GroupOf {
    String groupOf(RunInfo run, String comm);
  }

  /** The same process name's pids of one run, summed load by load. */
  private static final class Totals {
    long cpuNs;
    double realNs;
    long[] timeAtLoadNs = new long[0];
    /** Summed thread-state figures, absent when no pid of the name has thread states. */
    final Map<Metric, Double> wall = new TreeMap<>();

    void add(ProcessLoad p) {
      ThreadStateSummary s = p.threadStates;
      if (s != null) {
        wall.merge(Metric.WALL_TIME, (double) s.spanNs, Double::sum);
        wall.merge(Metric.CPU_WAIT, s.cpuWaitNs, Double::sum);
        wall.merge(Metric.CPU_WAIT_ON_CPU, s.cpuWaitOnCpuNs, Double::sum);
        wall.merge(Metric.RUNNABLE_OTHERS_TIME, s.runnableOtherNs, Double::sum);
        if (!Double.isNaN(s.cpuWaitOthersNs)) {
          wall.merge(Metric.CPU_WAIT_OTHERS, s.cpuWaitOthersNs, Double::sum);
          wall.merge(Metric.CPU_WAIT_OTHERS_ON_CPU, s.cpuWaitOthersOnCpuNs, Double::sum);
        }
        if (s.hasStates) { // without prev_state, sleeping and disk waits are "unknown"
          wall.merge(Metric.SLEEPING_TIME, s.byState(ThreadState.SLEEPING), Double::sum);
          wall.merge(Metric.DISK_TIME, s.byState(ThreadState.DISK), Double::sum);
        }
      }
      cpuNs += p.cpuNs;
      realNs += p.wallNs();
      if (p.timeAtLoadNs.length > timeAtLoadNs.length) {
        timeAtLoadNs = java.util.Arrays.copyOf(timeAtLoadNs, p.timeAtLoadNs.length);
      }
      for (int k = 0; k < p.timeAtLoadNs.length; k++) {
        timeAtLoadNs[k] += p.timeAtLoadNs[k];
      }
    }

    void putInto(Map<SeriesKey, Double> m, SeriesKey entity) {
      m.put(entity, realNs);
      m.put(entity.with(Metric.CPU_TIME), (double) cpuNs);
      if (realNs > 0) {
        m.put(entity.with(Metric.AVG_LOAD), cpuNs / realNs);
      }
      SerialFraction serial = SerialFraction.of(timeAtLoadNs);
      if (serial.defined()) {
        m.put(entity.with(Metric.SERIAL_FRACTION), serial.fraction());
      }
      for (int k = 0; k < timeAtLoadNs.length; k++) {
        m.put(entity.with(Metric.timeAtLoad(k)), (double) timeAtLoadNs[k]);
      }
      wall.forEach((metric, v) -> m.put(entity.with(metric), v));
    }
  }

  /** Keys of all runs given, sorted. */
  static List<SeriesKey> keys(Map<String, Map<SeriesKey, Double>> byRun, Iterable<String> runs) {
    java.util.TreeSet<SeriesKey> keys = new java.util.TreeSet<>();
    for (String r : runs) {
      keys.addAll(byRun.getOrDefault(r, Map.of()).keySet());
    }
    return List.copyOf(keys);
  }
}
