package dev.loadprof.compare;

import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The third cause of a real-time change: interference, the process's runnable threads waiting
 * for CPUs that other processes held. A process's real-time row gets it from the change of its
 * cpu_wait_others_on_cpu figure; its functions inherit the process's share of interference in
 * their load part (a function has no thread states of its own); and the processes that held
 * the CPUs are named from the runnable time each one caused.
 */
final class Interference {
  /** How many of the processes that held the CPUs are named. */
  static final int TAKERS_NAMED = 3;
  /** A process behind which the runnable time grew by less than this is not named. */
  static final double MIN_NAMED_NS = 500_000;

  /** What every note naming the takers has after the process's name. */
  private static final String NOTE_MARK = ": interference: ";

  private Interference() {}

  /** The notes among these that name the processes that took the CPUs. */
  static List<String> takerNotes(List<String> notes) {
    return notes.stream().filter(n -> n.contains(NOTE_MARK)).toList();
  }

  /** A process's real-time attribution with its interference part, where the runs tell it. */
  static Attribution of(Map<String, Map<SeriesKey, Double>> byRun, RunPresence ran,
      SeriesKey key, Attribution a) {
    Metric figure = key.metric().interference();
    if (a == null || key.isFunction() || figure == null) {
      return a;
    }
    double others = change(byRun, ran, key.with(figure));
    double all = change(byRun, ran, key.with(Metric.CPU_WAIT_ON_CPU));
    return Double.isNaN(others) ? a : a.withInterference(others, all - others);
  }

  /** The change of the medians of a figure; NaN when a side has no value. */
  private static double change(Map<String, Map<SeriesKey, Double>> byRun, RunPresence ran,
      SeriesKey key) {
    double[] b = RunPresence.values(byRun, ran.presentBaseline(), key);
    double[] c = RunPresence.values(byRun, ran.presentCandidate(), key);
    if (b.length == 0 || c.length == 0) {
      return Double.NaN;
    }
    return OrderStatistics.median(c) - OrderStatistics.median(b);
  }

  /**
   * Function real-time rows of a process whose real time changed by interference: a function's
   * load part is taken to hold the process's shares of interference and oversubscription in its
   * load part, and the
   * function's cause becomes interference by the same rule as the process's. When the process's
   * CPU time did not grow significantly, a function's CPU change is a shift among its functions
   * (preemption moves where cpu-clock samples land, e.g. onto the kernel's irq-restore), not
   * more work: a regression of such a function that its interference share does not explain
   * is "moved" (its parts show CPU, which "interference" would contradict).
   */
  static List<MetricComparison> spreadToFunctions(List<MetricComparison> rows) {
    Map<SeriesKey, Attribution> interfered = new HashMap<>();
    Set<SeriesKey> cpuGrew = new HashSet<>();
    for (MetricComparison r : rows) {
      if (r.key().isFunction()) {
        continue;
      }
      if (r.metric().isRealTime() && r.attribution() != null
          && r.attribution().isInterference()) {
        interfered.put(r.key(), r.attribution());
      } else if (r.metric().equals(Metric.CPU_TIME) && r.isRegression()) {
        cpuGrew.add(r.key().with(Metric.REAL_TIME));
      }
    }
    if (interfered.isEmpty()) {
      return rows;
    }
    List<MetricComparison> out = new ArrayList<>(rows.size());
    for (MetricComparison r : rows) {
      Attribution process = r.key().isFunction() && r.metric().isRealTime()
          && r.attribution() != null ? interfered.get(RunPresence.processOf(r.key())) : null;
      if (process == null || process.parallelismPartNs() == 0) {
        out.add(r);
        continue;
      }
      double share = Math.max(0, Math.min(1,
          process.interferencePartNs() / process.parallelismPartNs()));
      double own = process.oversubscriptionPartNs() / process.parallelismPartNs();
      double load = r.attribution().parallelismPartNs();
      Attribution a = r.attribution().withInterference(load * share, load * own);
      if (!a.isInterference() && r.isRegression()
          && !cpuGrew.contains(RunPresence.processOf(r.key()))) {
        a = a.asMoved();
      }
      out.add(r.withAttribution(a));
    }
    return out;
  }

  /**
   * One note per process whose real time changed by interference, naming the processes whose
   * runs its threads waited behind most more on the candidate side: medians per run of each
   * side of the runnable thread time each one caused.
   */
  static List<String> takers(Analysis all, RunMetrics.GroupOf groupOf, Comparison c) {
    List<String> notes = new ArrayList<>();
    Map<String, RunInfo> runs = new HashMap<>();
    all.runs().forEach(r -> runs.put(r.runId, r));
    for (MetricComparison r : c.rows()) {
      if (r.key().isFunction() || !r.metric().isRealTime() || !r.change()
          || r.attribution() == null || !r.attribution().isInterference()) {
        continue;
      }
      Map<String, Double> b = medianByTaker(all, groupOf, runs, r.key(), c.baselineRuns());
      Map<String, Double> cand = medianByTaker(all, groupOf, runs, r.key(), c.candidateRuns());
      Map<String, Double> growth = new TreeMap<>();
      cand.forEach((comm, ns) -> growth.put(comm, ns - b.getOrDefault(comm, 0.0)));
      List<Map.Entry<String, Double>> top = new ArrayList<>(growth.entrySet());
      top.removeIf(e -> e.getValue() < MIN_NAMED_NS);
      top.sort(Map.Entry.<String, Double>comparingByValue().reversed());
      StringBuilder names = new StringBuilder();
      for (Map.Entry<String, Double> e : top.subList(0, Math.min(TAKERS_NAMED, top.size()))) {
        names.append(names.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
            "%s +%.3f s", e.getKey(), e.getValue() / 1e9));
      }
      notes.add(r.key().entityName() + NOTE_MARK + "its threads waited for CPUs that other"
          + " processes held; " + (names.length() == 0
          ? "which ones is not known (no runnable time was attributed to another process)"
          : "they were " + names + " (runnable thread time behind each, median per run,"
              + " candidate minus baseline)"));
    }
    return notes;
  }

  private static Map<String, Double> medianByTaker(Analysis all, RunMetrics.GroupOf groupOf,
      Map<String, RunInfo> runs, SeriesKey process, List<String> side) {
    Set<String> sideRuns = new HashSet<>(side);
    Map<String, Map<String, Double>> byTaker = new TreeMap<>(); // comm -> run -> ns
    for (ProcessLoad p : all.processes()) {
      RunInfo run = runs.get(p.runId);
      if (p.threadStates == null || run == null || !sideRuns.contains(p.runId)) {
        continue;
      }
      String comm = all.comm(p.runId, p.pid);
      if (!comm.equals(process.process()) || !groupOf.groupOf(run, comm).equals(process.group())) {
        continue;
      }
      p.threadStates.runnableByPid.forEach((pid, ns) -> byTaker
          .computeIfAbsent(all.comm(p.runId, pid), k -> new TreeMap<>())
          .merge(p.runId, ns, Double::sum));
    }
    Map<String, Double> out = new TreeMap<>();
    byTaker.forEach((comm, perRun) -> {
      double[] v = new double[side.size()]; // a run without the taker waited 0 behind it
      int i = 0;
      for (String run : side) {
        v[i++] = perRun.getOrDefault(run, 0.0);
      }
      out.put(comm, OrderStatistics.median(v));
    });
    return out;
  }
}
