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
