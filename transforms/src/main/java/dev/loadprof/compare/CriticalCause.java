package dev.loadprof.compare;

import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.report.html.CriticalHtml;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where on the critical path a real-time change is: the column beside the cause (cpu,
 * parallelism, interference) that names the function whose time on the path grew (or, for an
 * improvement, shrank) most: code, or a blocked wait ("[blocked: timer]"), never a wait for a
 * CPU (scheduling: the cause's interference and oversubscription parts tell that). Only where every run of both sides has a path (a process's
 * {@link Metric#CRITICAL_TIME}); otherwise the attribution stays as it was, so comparisons of
 * runs without paths are unchanged.
 */
final class CriticalCause {
  /** A process's real-time key -> its functions' critical-time keys. */
  private final Map<SeriesKey, List<SeriesKey>> functionsOf = new HashMap<>();

  private CriticalCause() {}

  /** The function figures on critical paths among the keys compared. */
  static CriticalCause of(List<SeriesKey> keys) {
    CriticalCause c = new CriticalCause();
    for (SeriesKey k : keys) {
      if (k.isFunction() && k.metric().isCritical()) {
        c.functionsOf.computeIfAbsent(RunPresence.processOf(k), p -> new ArrayList<>()).add(k);
      }
    }
    return c;
  }

  /**
   * A real-time row's attribution naming the critical function: for a process, the function
   * whose time on the path changed most the change's way (none when none did); for a function,
   * its own time on the path. Unchanged without an attribution or a path on every run.
   */
  Attribution attach(Map<String, Map<SeriesKey, Double>> byRun, RunPresence ran, SeriesKey key,
      Attribution a) {
    if (a == null) {
      return null;
    }
    double pathChange = change(byRun, ran, key.with(Metric.CRITICAL_TIME).onProcess());
    double sign = Math.signum(a.cpuPartNs() + a.parallelismPartNs());
    if (Double.isNaN(pathChange) || sign == 0) {
      return a;
    }
    if (key.isFunction()) {
      return a.withCritical(new Attribution.CriticalChange(key.function(),
          change(byRun, ran, key.with(Metric.CRITICAL_TIME)), pathChange, true));
    }
    String best = null;
    double bestChange = 0;
    for (SeriesKey f : functionsOf.getOrDefault(key, List.of())) {
      if (!isCode(f)) {
        continue;
      }
      double c = change(byRun, ran, f);
      // Ties go to the first function in key order: the same name on every machine.
      if (c * sign > bestChange * sign) {
        best = f.function();
        bestChange = c;
      }
    }
    return a.withCritical(new Attribution.CriticalChange(best, bestChange, pathChange, false));
  }

  /**
   * A change point's attribution naming the critical function, from the tracked series (the
   * top functions' critical_time): the levels before (first..night) and after (night..end) as
   * the change point's own; only when the process's path has nights on both sides.
   */
  static Attribution atChangePoint(Attribution a, SeriesKey key,
      Map<SeriesKey, NightlyHistory.Series> all, java.time.LocalDate first,
      java.time.LocalDate night, java.time.LocalDate end) {
    NightlyHistory.Series path = all.get(key.with(Metric.CRITICAL_TIME).onProcess());
    double sign = Math.signum(a.cpuPartNs() + a.parallelismPartNs());
    if (path == null || sign == 0 || !path.hasNights(first, night)
        || !path.hasNights(night, end)) {
      return a;
    }
    double pathChange = path.median(night, end) - path.median(first, night);
    if (key.isFunction()) {
      NightlyHistory.Series own = all.get(key.with(Metric.CRITICAL_TIME));
      double change = own == null ? 0 : own.median(night, end) - own.median(first, night);
      return a.withCritical(new Attribution.CriticalChange(key.function(), change, pathChange,
          true));
    }
    String best = null;
    double bestChange = 0;
    for (NightlyHistory.Series f : new java.util.TreeMap<>(all).values()) {
      if (f.key.isFunction() && f.key.metric().isCritical() && isCode(f.key)
          && RunPresence.processOf(f.key).equals(key)) {
        double c = f.median(night, end) - f.median(first, night);
        if (c * sign > bestChange * sign) {
          best = f.key.function();
          bestChange = c;
        }
      }
    }
    return a.withCritical(new Attribution.CriticalChange(best, bestChange, pathChange, false));
  }

  /** A function or a blocked wait; not a wait for a CPU. */
  private static boolean isCode(SeriesKey f) {
    return !f.function().startsWith(CriticalHtml.CPU_WAIT);
  }

  /** The change of the medians; NaN unless every run of both sides has the figure. */
  private static double change(Map<String, Map<SeriesKey, Double>> byRun, RunPresence ran,
      SeriesKey key) {
    double[] b = all(byRun, ran.presentBaseline(), key);
    double[] c = all(byRun, ran.presentCandidate(), key);
    return b == null || c == null ? Double.NaN
        : OrderStatistics.median(c) - OrderStatistics.median(b);
  }

  private static double[] all(Map<String, Map<SeriesKey, Double>> byRun, List<String> runs,
      SeriesKey key) {
    if (runs.isEmpty()) {
      return null;
    }
    double[] v = new double[runs.size()];
    for (int i = 0; i < v.length; i++) {
      Double x = RunPresence.value(byRun, runs.get(i), key);
      if (x == null) {
        return null;
      }
      v[i] = x;
    }
    return v;
  }
}
