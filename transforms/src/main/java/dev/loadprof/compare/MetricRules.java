package dev.loadprof.compare;

import dev.loadprof.compare.MetricComparison.Method;
import dev.loadprof.compare.stats.HodgesLehmann;
import dev.loadprof.compare.stats.MannWhitney;
import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.compare.stats.PredictionInterval;
import dev.loadprof.compare.stats.StudentT;
import java.util.List;
import java.util.Locale;

/**
 * The rules of one comparison, by the number of runs: at least 2 a side, medians with the
 * Mann–Whitney p-value and the Hodges–Lehmann interval when the exact rank test can reach the
 * level asked for, else Student's t-test (so that more runs never make a change harder to report);
 * 1 candidate run, the prediction interval of the baseline runs; 1 baseline run, no
 * significance, thresholds only. Intervals are of the ratio candidate / baseline (logarithms of
 * the values) wherever no value is 0, so they never reach below -100 %.
 */
final class MetricRules {
  private MetricRules() {}

  /** One figure judged on its own: its test must reach alpha. */
  static MetricComparison compare(SeriesKey key, double[] b, double[] c, double entityRealNs,
      Attribution attribution, CompareSettings s) {
    return compare(key, b, c, entityRealNs, attribution, s, s.alpha());
  }

  /**
   * @param entityRealNs the larger median real time of the entity (for the threshold of ratios)
   * @param attribution for real-time keys, else null
   * @param level the level the test must be able to reach: alpha, or less when the figure is
   *     judged together with others (Holm's first step is alpha / m); the exact rank test is
   *     used only when its smallest possible p is below it
   */
  static MetricComparison compare(SeriesKey key, double[] b, double[] c, double entityRealNs,
      Attribution attribution, CompareSettings s, double level) {
    double alpha = s.alpha();
    double mb = OrderStatistics.median(b);
    double mc = OrderStatistics.median(c);
    Double deltaPct = null; // undefined from a zero baseline, unless nothing changed
    if (mb != 0) {
      deltaPct = 100 * (mc - mb) / Math.abs(mb);
    } else if (mc == 0) {
      deltaPct = 0.0;
    }
    Method method;
    Interval interval = null;
    Double p = null;
    String note = null;
    boolean logs = allPositive(b) && allPositive(c);
    if (b.length >= 2 && c.length >= 2) {
      double minP = MannWhitney.minPValue(b.length, c.length);
      if (minP < level) {
        method = Method.MANN_WHITNEY;
        p = MannWhitney.test(b, c).pValue();
        HodgesLehmann hl = logs ? HodgesLehmann.of(log(b), log(c), alpha)
            : HodgesLehmann.of(b, c, alpha);
        if (hl.lower() != null) {
          interval = logs ? Interval.ofLogRatio(hl.lower(), hl.upper())
              : mb > 0 ? Interval.ofShift(hl.lower(), hl.upper(), mb) : null;
        }
      } else {
        method = Method.T_TEST;
        StudentT t = logs ? StudentT.test(log(b), log(c), alpha)
            : StudentT.test(b, c, alpha);
        p = t.pValue();
        double meanB = OrderStatistics.mean(b);
        interval = logs ? Interval.ofLogRatio(t.lower(), t.upper())
            : meanB > 0 ? Interval.ofShift(t.lower(), t.upper(), meanB) : null;
        note = String.format(Locale.ROOT, "Student's t-test%s: with %d vs %d runs the rank test's"
            + " smallest p is %.3f, not below %s", logs ? " on the logarithms" : "", b.length,
            c.length, minP, levelText(level));
      }
    } else if (b.length >= 2) {
      method = Method.PREDICTION_INTERVAL;
      PredictionInterval pi = PredictionInterval.of(b, c[0], alpha);
      p = pi.pValue();
      interval = Interval.ofPrediction(pi.lower(), pi.upper());
    } else {
      method = Method.NONE;
      note = "one baseline run: no significance can be claimed, thresholds only";
    }
    boolean significant = p != null && p < alpha;
    boolean passes = passes(key.metric(), mb, mc, entityRealNs, s.thresholds());
    boolean change = passes && (method == Method.NONE || significant);
    String kind = null;
    if (mc != mb) {
      boolean worse = (mc > mb) == key.metric().higherIsWorse();
      kind = worse ? MetricComparison.REGRESSION : MetricComparison.IMPROVEMENT;
    }
    return new MetricComparison(key, b.length, c.length, mb, mc, deltaPct, method, interval, p,
        significant, passes, change, kind, attribution, note, List.of(), List.of());
  }

  /** The level to two significant digits: "0.05", "0.0017". */
  static String levelText(double level) {
    return new java.math.BigDecimal(level).round(new java.math.MathContext(2))
        .stripTrailingZeros().toPlainString();
  }

  private static boolean allPositive(double[] v) {
    for (double x : v) {
      if (!(x > 0)) {
        return false;
      }
    }
    return true;
  }

  private static double[] log(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.log(v[i]);
    }
    return out;
  }

  /**
   * A process that ran on one side only. It is a finding (a change) when its real time on the
   * side where it ran reaches the absolute threshold: a benchmark that stopped running (or
   * started) is neither "no change" nor comparable.
   */
  static MetricComparison missing(SeriesKey key, RunPresence presence, double[] b, double[] c,
      CompareSettings s) {
    double mb = b.length == 0 ? Double.NaN : OrderStatistics.median(b);
    double mc = c.length == 0 ? Double.NaN : OrderStatistics.median(c);
    double ran = Double.isNaN(mb) ? mc : mb;
    boolean passes = ran >= s.thresholds().minAbsoluteNs();
    String note = "absent from every " + (b.length == 0 ? "baseline" : "candidate")
        + " run: not compared";
    return new MetricComparison(key, b.length, c.length, mb, mc, null, Method.NONE, null,
        null, false, passes, passes, MetricComparison.MISSING, null, note,
        presence.absentBaseline(), presence.absentCandidate());
  }

  static boolean passes(Metric m, double mb, double mc, double entityRealNs, Thresholds t) {
    double delta = Math.abs(mc - mb);
    boolean relative = mb == 0 ? mc != 0 : delta >= t.minRelative() * Math.abs(mb);
    boolean absolute = m.isTime() ? delta >= t.minAbsoluteNs()
        : entityRealNs >= t.minAbsoluteNs();
    return relative && absolute && delta > 0;
  }
}
