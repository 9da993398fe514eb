package dev.loadprof.compare;

import dev.loadprof.compare.MetricComparison.Method;
import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.compare.stats.PredictionInterval;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The latest night of one benchmark judged against its earlier nights. The unit is the night:
 * a night's value of a figure is the median of its runs (history.csv's value), and with at least
 * two earlier nights the latest night's value is judged against the prediction interval of the
 * earlier nights' values, one per night, as a single candidate run is in compare. Repeats of the
 * latest night only make its median steadier, so they never make a change harder to report;
 * and the nights' own spread, not only the runs', sets the interval, since runs of one night
 * share what differs between nights (the machine, its load, the build).
 *
 * <p>When the latest night has fewer runs than the earlier ones had, its median is noisier than
 * theirs: the interval is widened by the within-night variance s_w^2 (pooled over the nights'
 * runs) times 1/m - mean(1/r_i), m the latest night's runs and r_i the earlier nights' (the
 * variance of a mean of r runs is s_w^2 / r; a median's is larger, by at most pi/2, and equal for
 * 1 or 2 runs, so for a latest night of 1 or 2 runs the widening is never too small).
 *
 * <p>With one earlier night there is no spread of nights: its runs are compared with the latest
 * night's runs by compare's rules.
 */
final class NightlyLatest {
  private NightlyLatest() {}

  /** The latest night (nights' last key) against the earlier nights, judged together. */
  static Comparison compare(TreeMap<LocalDate, List<String>> nights,
      Map<String, Map<SeriesKey, Double>> byRun, CompareSettings s) {
    LocalDate latest = nights.lastKey();
    List<LocalDate> earlier = List.copyOf(nights.headMap(latest, false).keySet());
    List<String> baselineRuns = new ArrayList<>();
    earlier.forEach(n -> baselineRuns.addAll(nights.get(n)));
    List<String> latestRuns = nights.get(latest);
    if (earlier.size() < 2) {
      return Compare.judgedTogether(byRun, baselineRuns, latestRuns, s);
    }
    Map<String, Map<SeriesKey, Double>> byNight = byNight(nights, byRun);
    List<String> earlierIds = earlier.stream().map(LocalDate::toString).toList();
    Comparison c = Compare.compare(byNight, earlierIds, List.of(latest.toString()), List.of(), s);
    List<MetricComparison> rows = new ArrayList<>();
    Map<SeriesKey, RunPresence> presence = new TreeMap<>();
    for (MetricComparison r : c.rows()) {
      RunPresence ran = presence.computeIfAbsent(RunPresence.processOf(r.key()),
          k -> RunPresence.of(byRun, k, baselineRuns, latestRuns));
      rows.add(inRuns(r, ran, nights, byRun, byNight, s));
    }
    List<String> notes = new ArrayList<>();
    notes.add(String.format(Locale.ROOT, "the latest night's value of each figure (the median of"
        + " its runs, %d) is judged against the %.0f%% prediction interval of the %d earlier"
        + " nights' values (one per night, the median of its runs; assumes roughly normal"
        + " night-to-night noise)", latestRuns.size(), 100 * (1 - s.alpha()), earlier.size()));
    notes.addAll(RunPresence.notes(presence.values(), byRun, s));
    return Compare.withHolm(new Comparison(s, baselineRuns, latestRuns, List.of(), rows, notes));
  }

  /** Every figure's value per night: the median of the night's runs where it is defined. */
  private static Map<String, Map<SeriesKey, Double>> byNight(
      TreeMap<LocalDate, List<String>> nights, Map<String, Map<SeriesKey, Double>> byRun) {
    List<String> runs = new ArrayList<>();
    nights.values().forEach(runs::addAll);
    Map<String, Map<SeriesKey, Double>> out = new TreeMap<>();
    nights.keySet().forEach(n -> out.put(n.toString(), new TreeMap<>()));
    for (SeriesKey key : RunMetrics.keys(byRun, runs)) {
      NightlyHistory.Series x = NightlyHistory.Series.of(key, nights, byRun);
      for (int i = 0; i < x.nights.size(); i++) {
        out.get(x.nights.get(i).toString()).put(key, x.values[i]);
      }
    }
    return out;
  }

  /**
   * A row compared night by night, told in runs: n and the runs left out are the runs', and a
   * prediction-interval row is judged again with the interval widened for a latest night with
   * fewer runs than the earlier nights had.
   */
  private static MetricComparison inRuns(MetricComparison r, RunPresence ran,
      TreeMap<LocalDate, List<String>> nights, Map<String, Map<SeriesKey, Double>> byRun,
      Map<String, Map<SeriesKey, Double>> byNight, CompareSettings s) {
    int nb = RunPresence.values(byRun, ran.presentBaseline(), r.key()).length;
    int nc = RunPresence.values(byRun, ran.presentCandidate(), r.key()).length;
    Method method = r.method();
    Interval interval = r.interval();
    Double p = r.pValue();
    String note = r.note();
    if (method == Method.PREDICTION_INTERVAL) {
      method = Method.NIGHT_PREDICTION_INTERVAL;
      LocalDate latest = nights.lastKey();
      double[] earlier = nightValues(nights.headMap(latest, false), byNight, r.key());
      double extra = extraVariance(nights, byRun, r.key());
      if (extra > 0) {
        PredictionInterval pi = PredictionInterval.of(earlier, r.candidate(), s.alpha(), extra);
        p = pi.pValue();
        interval = Interval.ofPrediction(pi.lower(), pi.upper());
        note = String.format(Locale.ROOT, "the latest night has fewer runs (%d) than the"
            + " earlier nights had: its interval is widened by the within-night spread", nc);
      }
    }
    boolean significant = p != null && p < s.alpha();
    boolean change = MetricComparison.MISSING.equals(r.kind()) ? r.change()
        : r.passesThresholds() && (method == Method.NONE || significant);
    return new MetricComparison(r.key(), nb, nc, r.baseline(), r.candidate(), r.deltaPct(),
        method, interval, p, significant, r.passesThresholds(), change, r.kind(),
        r.attribution(), note, ran.absentBaseline(), ran.absentCandidate());
  }

  private static double[] nightValues(Map<LocalDate, List<String>> nights,
      Map<String, Map<SeriesKey, Double>> byNight, SeriesKey key) {
    List<String> ids = nights.keySet().stream().map(LocalDate::toString).toList();
    return RunPresence.values(byNight, ids, key);
  }

  /**
   * How much more the latest night's value varies than an earlier night's, from the runs:
   * s_w^2 (1/m - mean over the earlier nights of 1/r_i), where it is positive; 0 when no night
   * has two runs of the figure (no within-night spread to tell).
   */
  static double extraVariance(TreeMap<LocalDate, List<String>> nights,
      Map<String, Map<SeriesKey, Double>> byRun, SeriesKey key) {
    double squares = 0;
    int df = 0;
    double inverseRuns = 0;
    int earlierNights = 0;
    int latestRuns = 0;
    for (Map.Entry<LocalDate, List<String>> e : nights.entrySet()) {
      double[] v = RunPresence.values(byRun, e.getValue(), key);
      if (v.length >= 2) {
        double sd = OrderStatistics.stdDev(v);
        squares += sd * sd * (v.length - 1);
        df += v.length - 1;
      }
      if (e.getKey().equals(nights.lastKey())) {
        latestRuns = v.length;
      } else if (v.length > 0) {
        inverseRuns += 1.0 / v.length;
        earlierNights++;
      }
    }
    if (df == 0 || latestRuns == 0 || earlierNights == 0) {
      return 0;
    }
    return squares / df * Math.max(0, 1.0 / latestRuns - inverseRuns / earlierNights);
  }
}
