package dev.loadprof.compare;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The result of loadprof nightly: the history of every figure, its change points, and the
 * latest night compared (per benchmark) with the nights before it back to the benchmark's last
 * change point or the history limit.
 *
 * @param latestNight null when no run has a night
 * @param latest benchmark -> the latest night's comparison (absent when it has no earlier night)
 * @param belowThresholds change points E-Divisive found significant that the thresholds dropped
 * @param withinNoise change points past the thresholds whose step was within minStepNoise times
 *     the series' noise, dropped too
 */
public record Nightly(
    NightlySettings settings,
    LocalDate latestNight,
    Map<String, List<LocalDate>> nightsByBenchmark,
    List<HistoryPoint> history,
    List<ChangePoint> changePoints,
    int belowThresholds,
    int withinNoise,
    Map<String, Comparison> latest,
    List<ExcludedRun> excluded,
    List<String> notes) {

  /** The latest night's changes over all benchmarks, regressions first. */
  public List<MetricComparison> changes() {
    List<MetricComparison> out = new ArrayList<>();
    latest.values().forEach(c -> out.addAll(c.changes()));
    out.sort(CompareOrder.CHANGES);
    return out;
  }

  /**
   * The real-time change points whose level lasts to the latest night (the last of each
   * figure's, of benchmarks that ran on the latest night): the latest night is compared with
   * the nights since its benchmark's last change point, so "no change" beside one of these
   * means the level is still changed against the nights before it. Regressions first, then
   * processes before functions, biggest change first.
   */
  public List<ChangePoint> stillChanged() {
    Map<SeriesKey, ChangePoint> last = new java.util.TreeMap<>();
    for (ChangePoint cp : changePoints) {
      List<LocalDate> nights = nightsByBenchmark.get(cp.key().group());
      if (cp.key().metric().isRealTime() && nights != null && nights.contains(latestNight)) {
        last.merge(cp.key(), cp, (a, b) -> a.night().isAfter(b.night()) ? a : b);
      }
    }
    List<ChangePoint> out = new ArrayList<>(last.values());
    out.sort(java.util.Comparator.comparing((ChangePoint cp) -> !MetricComparison.REGRESSION
        .equals(cp.kind())).thenComparing(cp -> cp.key().isFunction())
        .thenComparing(cp -> -Math.abs(cp.after() - cp.before())));
    return out;
  }

  public Verdict verdict() {
    List<MetricComparison> rows = new ArrayList<>();
    latest.values().forEach(c -> rows.addAll(c.rows()));
    return Verdict.of(rows);
  }

  /** As compare's: 3 regression, 4 missing, 5 interference if asked, else 0. */
  public int exitCode() {
    return verdict().exitCode(settings.compare().failOnInterference());
  }
}
