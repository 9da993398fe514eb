package dev.loadprof.compare;

/**
 * A compared figure's interval, as compare.json's "interval". No figure is below 0 (times, loads
 * and shares), so no interval says it could be: a ratio interval is above -100 % by its
 * construction, and a shift or prediction interval reaching below that is cut there and says so.
 *
 * @param kind what low and high are
 * @param clipped whether the interval was cut at -100 % (shift) or at 0 (prediction)
 */
public record Interval(Kind kind, double low, double high, boolean clipped) {

  public enum Kind {
    /**
     * candidate / baseline - 1, in %: the interval of the log ratio (Hodges–Lehmann, or the
     * t-test's, on the logarithms of the runs' values) taken back by exp; above -100 %.
     */
    RATIO_PCT("ratio_pct"),
    /**
     * The shift candidate - baseline in % of the baseline (figures with a 0 in some run, which
     * have no logarithm); cut at -100 %.
     */
    SHIFT_PCT("shift_pct"),
    /** Where a single candidate value was expected, in the metric's unit; cut at 0. */
    PREDICTION("prediction");

    public final String id;

    Kind(String id) {
      this.id = id;
    }
  }

  /** From an interval of log(candidate / baseline). */
  static Interval ofLogRatio(double logLow, double logHigh) {
    return new Interval(Kind.RATIO_PCT, 100 * Math.expm1(logLow), 100 * Math.expm1(logHigh),
        false);
  }

  /** From an interval of the shift candidate - baseline, in % of reference (> 0). */
  static Interval ofShift(double low, double high, double reference) {
    double lowPct = 100 * low / reference;
    double highPct = 100 * high / reference;
    boolean cut = lowPct < -100;
    return new Interval(Kind.SHIFT_PCT, Math.max(-100, lowPct), Math.max(-100, highPct), cut);
  }

  /** Where one candidate value was expected, in the metric's unit. */
  static Interval ofPrediction(double low, double high) {
    return new Interval(Kind.PREDICTION, Math.max(0, low), Math.max(0, high), low < 0);
  }
}
