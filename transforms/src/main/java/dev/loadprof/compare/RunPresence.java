package dev.loadprof.compare;

import dev.loadprof.compare.stats.OrderStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which runs of each side a process ran in (had real time). A run without the process says
 * nothing about its figures, so that run is left out of every figure of the process and its
 * functions, never counted as 0 (a benchmark that did not run is not infinitely fast); every
 * figure of one process then has the same runs. Within a run where the process ran, a function
 * that was never sampled took less than a sample interval: its times count as 0 there.
 *
 * @param process the process's real-time key
 */
record RunPresence(SeriesKey process, List<String> presentBaseline,
    List<String> presentCandidate, List<String> absentBaseline, List<String> absentCandidate) {

  static RunPresence of(Map<String, Map<SeriesKey, Double>> byRun, SeriesKey key,
      List<String> baseline, List<String> candidate) {
    SeriesKey process = processOf(key);
    List<String> pb = new ArrayList<>();
    List<String> pc = new ArrayList<>();
    List<String> ab = new ArrayList<>();
    List<String> ac = new ArrayList<>();
    for (String r : baseline) {
      (ran(byRun, r, process) ? pb : ab).add(r);
    }
    for (String r : candidate) {
      (ran(byRun, r, process) ? pc : ac).add(r);
    }
    return new RunPresence(process, List.copyOf(pb), List.copyOf(pc), List.copyOf(ab),
        List.copyOf(ac));
  }

  /** The whole process's real-time key of any figure's key. */
  static SeriesKey processOf(SeriesKey key) {
    return new SeriesKey(key.group(), key.process(), null, Metric.REAL_TIME);
  }

  /**
   * The figure of one run: null when the process did not run in it, when a ratio is undefined
   * (nothing of the function ran), or when the run's trace cannot give the figure (thread-state
   * figures, time on the critical path of a run without one); 0 for a time figure that the run lacks though its process ran.
   */
  static Double value(Map<String, Map<SeriesKey, Double>> byRun, String run, SeriesKey key) {
    Map<SeriesKey, Double> figures = byRun.getOrDefault(run, Map.of());
    if (!ran(figures, processOf(key))) {
      return null;
    }
    Double x = figures.get(key);
    if (x != null || key.metric().isFromThreadStates()) {
      return x;
    }
    if (key.metric().isCritical()) { // 0 off a path the run has; unknown without one
      return figures.containsKey(key.onProcess()) ? 0.0 : null;
    }
    return key.metric().isTime() ? Double.valueOf(0) : null;
  }

  /** The values of the runs given (those where the figure is defined). */
  static double[] values(Map<String, Map<SeriesKey, Double>> byRun, List<String> runs,
      SeriesKey key) {
    List<Double> v = new ArrayList<>();
    for (String r : runs) {
      Double x = value(byRun, r, key);
      if (x != null) {
        v.add(x);
      }
    }
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * One note per process that did not run in some runs, naming them by side, for processes
   * whose real time reaches the absolute threshold on a side (the others would drown the notes
   * of a system-wide recording; compare.json lists every figure's runs left out).
   */
  static List<String> notes(Iterable<RunPresence> processes,
      Map<String, Map<SeriesKey, Double>> byRun, CompareSettings s) {
    List<String> notes = new ArrayList<>();
    for (RunPresence p : processes) {
      if (p.absentBaseline.isEmpty() && p.absentCandidate.isEmpty()) {
        continue;
      }
      double[] b = values(byRun, p.presentBaseline, p.process);
      double[] c = values(byRun, p.presentCandidate, p.process);
      double real = Math.max(b.length == 0 ? 0 : OrderStatistics.median(b),
          c.length == 0 ? 0 : OrderStatistics.median(c));
      if (real < s.thresholds().minAbsoluteNs()) {
        continue;
      }
      String name = p.process.entityName();
      if (p.missingFromASide()) {
        boolean noBaseline = p.presentBaseline.isEmpty();
        notes.add(String.format(Locale.ROOT, "%s is missing: it ran in no %s run (%s) but in"
            + " %d %s runs (median real time %s); it is not compared", name,
            noBaseline ? "baseline" : "candidate",
            String.join(", ", noBaseline ? p.absentBaseline : p.absentCandidate),
            (noBaseline ? c : b).length, noBaseline ? "candidate" : "baseline",
            Metric.REAL_TIME.format(real)));
        continue;
      }
      List<String> where = new ArrayList<>();
      if (!p.absentBaseline.isEmpty()) {
        where.add("baseline " + runs(p.absentBaseline));
      }
      if (!p.absentCandidate.isEmpty()) {
        where.add("candidate " + runs(p.absentCandidate));
      }
      notes.add(String.format(Locale.ROOT, "%s did not run in %s: left out of its figures"
          + " (n = %d+%d)", name, String.join(" and ", where), b.length, c.length));
    }
    return notes;
  }

  private static String runs(List<String> runs) {
    return (runs.size() == 1 ? "run " : "runs ") + String.join(", ", runs);
  }

  /** The process ran on one side only (and on that one at all). */
  boolean missingFromASide() {
    return presentBaseline.isEmpty() != presentCandidate.isEmpty();
  }

  boolean ranOnBothSides() {
    return !presentBaseline.isEmpty() && !presentCandidate.isEmpty();
  }

  private static boolean ran(Map<String, Map<SeriesKey, Double>> byRun, String run,
      SeriesKey process) {
    return ran(byRun.getOrDefault(run, Map.of()), process);
  }

  private static boolean ran(Map<SeriesKey, Double> figures, SeriesKey process) {
    Double real = figures.get(process);
    return real != null && real > 0;
  }
}
