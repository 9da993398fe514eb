package dev.loadprof.compare;

import java.util.List;

/**
 * One figure compared between the sides.
 *
 * @param baseline median over the baseline runs
 * @param candidate median over the candidate runs
 * @param deltaPct (candidate - baseline) / baseline in %; null when the baseline is 0
 * @param interval with MANN_WHITNEY the Hodges–Lehmann confidence interval of the ratio (or of
 *     the shift, for figures with a 0), with T_TEST the t-test's; with PREDICTION_INTERVAL and
 *     NIGHT_PREDICTION_INTERVAL where the candidate was expected, in the metric's unit; null
 *     when there is none
 * @param pValue null with {@link Method#NONE}
 * @param significant what the test says (always false with NONE)
 * @param passesThresholds whether the change is at least the thresholds
 * @param change reported: significant (or NONE) and past the thresholds
 * @param kind "regression" or "improvement" for a change in that direction, else null
 * @param attribution for real-time figures, else null
 * @param note why significance is out of reach for these sample sizes, or null
 * @param absentBaseline baseline runs left out because the process did not run in them
 * @param absentCandidate candidate runs left out likewise
 */
public record MetricComparison(
    SeriesKey key,
    int nBaseline,
    int nCandidate,
    double baseline,
    double candidate,
    Double deltaPct,
    Method method,
    Interval interval,
    Double pValue,
    boolean significant,
    boolean passesThresholds,
    boolean change,
    String kind,
    Attribution attribution,
    String note,
    List<String> absentBaseline,
    List<String> absentCandidate) {

  public static final String REGRESSION = "regression";
  public static final String IMPROVEMENT = "improvement";
  /** A process that ran on one side only: its figures cannot be compared. */
  public static final String MISSING = "missing";

  public MetricComparison {
    absentBaseline = List.copyOf(absentBaseline);
    absentCandidate = List.copyOf(absentCandidate);
  }

  /**
   * How significance was judged: by the number of runs on each side, the level the test must be
   * able to reach, and for nightly the number of earlier nights.
   */
  public enum Method {
    /**
     * At least 2 runs a side, enough for the exact rank test to reach the level: Mann–Whitney U,
     * Hodges–Lehmann interval.
     */
    MANN_WHITNEY("mann-whitney"),
    /**
     * At least 2 runs a side, too few for the rank test to reach the level (its smallest p is
     * at or above it): Student's t-test on the logarithms of the values (on the values when one
     * is 0).
     */
    T_TEST("t-test"),
    /** One candidate run, at least 2 baseline runs: is it inside their prediction interval? */
    PREDICTION_INTERVAL("prediction-interval"),
    /**
     * nightly with at least 2 earlier nights: the latest night's value (the median of its runs)
     * against the prediction interval of the earlier nights' values, one per night.
     */
    NIGHT_PREDICTION_INTERVAL("night-prediction-interval"),
    /** One baseline run: no significance can be claimed; thresholds only. */
    NONE("thresholds-only");

    public final String id;

    Method(String id) {
      this.id = id;
    }
  }

  public Metric metric() {
    return key.metric();
  }

  /** Absolute change of the medians. */
  public double delta() {
    return candidate - baseline;
  }

  /** The interval's low end, or null without an interval. */
  public Double intervalLow() {
    return interval == null ? null : interval.low();
  }

  /** The interval's high end, or null without an interval. */
  public Double intervalHigh() {
    return interval == null ? null : interval.high();
  }

  /**
   * The same comparison judged by a p-value adjusted for the other figures tested with it
   * (Holm): significant only when the adjusted p is below alpha. pValue stays the figure's own.
   */
  public MetricComparison withAdjustedP(double adjusted, double alpha) {
    boolean sig = adjusted < alpha;
    String why = String.format(java.util.Locale.ROOT, "Holm-adjusted p=%.4f over the real-time"
        + " figures of the comparison", adjusted);
    return new MetricComparison(key, nBaseline, nCandidate, baseline, candidate, deltaPct,
        method, interval, pValue, sig, passesThresholds, passesThresholds && sig,
        kind, attribution, note == null ? why : note + "; " + why, absentBaseline,
        absentCandidate);
  }

  /** The same comparison, with the runs of each side that were left out. */
  MetricComparison withAbsent(List<String> baselineRuns, List<String> candidateRuns) {
    return new MetricComparison(key, nBaseline, nCandidate, baseline, candidate, deltaPct,
        method, interval, pValue, significant, passesThresholds, change, kind,
        attribution, note, baselineRuns, candidateRuns);
  }

  /** The same comparison with another attribution (the interference part known). */
  MetricComparison withAttribution(Attribution a) {
    return new MetricComparison(key, nBaseline, nCandidate, baseline, candidate, deltaPct,
        method, interval, pValue, significant, passesThresholds, change, kind, a,
        note, absentBaseline, absentCandidate);
  }

  public boolean isMissing() {
    return change && MISSING.equals(kind);
  }

  public boolean isRegression() {
    return change && REGRESSION.equals(kind);
  }
}
