package dev.loadprof.compare;

import dev.loadprof.compare.MetricComparison.Method;
import dev.loadprof.compare.stats.HodgesLehmann;
import dev.loadprof.compare.stats.MannWhitney;
import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.compare.stats.PredictionInterval;
import java.util.Locale;

/**
 * The rules of one comparison, by the number of runs: at least 2 a side, medians with the
 * Mann–Whitney p-value and the Hodges–Lehmann interval; 1 candidate run, the prediction interval
 * of the baseline runs; 1 baseline run, no significance, thresholds only.
 */
final class MetricRules {
  private MetricRules() {}

  /**
   * @param entityRealNs the larger median real time of the entity (for the threshold of ratios)
   * @param attribution for real-time keys, else null
   */
  static MetricComparison compare(SeriesKey key, double[] b, double[] c, double entityRealNs,
      Attribution attribution, CompareSettings s) {
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
    Double low = null;
    Double high = null;
    Double p = null;
    boolean significant = false;
    String note = null;
    if (b.length >= 2 && c.length >= 2) {
      method = Method.MANN_WHITNEY;
      p = MannWhitney.test(b, c).pValue();
      significant = p < alpha;
      HodgesLehmann hl = HodgesLehmann.of(b, c, alpha);
      if (hl.lower() != null && mb != 0) {
        low = 100 * hl.lower() / Math.abs(mb);
        high = 100 * hl.upper() / Math.abs(mb);
      }
      double minP = MannWhitney.minPValue(b.length, c.length);
      if (minP >= alpha) {
        note = String.format(Locale.ROOT, "%d vs %d runs: the smallest possible p is %.3f,"
            + " not below alpha %.2f", b.length, c.length, minP, alpha);
      }
    } else if (b.length >= 2) {
      method = Method.PREDICTION_INTERVAL;
      PredictionInterval pi = PredictionInterval.of(b, c[0], alpha);
      p = pi.pValue();
      significant = p < alpha;
      low = pi.lower();
      high = pi.upper();
    } else {
      method = Method.NONE;
      note = "one baseline run: no significance can be claimed, thresholds only";
    }
    boolean passes = passes(key.metric(), mb, mc, entityRealNs, s.thresholds());
    boolean change = passes && (method == Method.NONE || significant);
    String kind = null;
    if (mc != mb) {
      boolean worse = (mc > mb) == key.metric().higherIsWorse();
      kind = worse ? MetricComparison.REGRESSION : MetricComparison.IMPROVEMENT;
    }
    return new MetricComparison(key, b.length, c.length, mb, mc, deltaPct, method, low, high, p,
        significant, passes, change, kind, attribution, note);
  }

  static boolean passes(Metric m, double mb, double mc, double entityRealNs, Thresholds t) {
    double delta = Math.abs(mc - mb);
    boolean relative = mb == 0 ? mc != 0 : delta >= t.minRelative() * Math.abs(mb);
    boolean absolute = m.isTime() ? delta >= t.minAbsoluteNs()
        : entityRealNs >= t.minAbsoluteNs();
    return relative && absolute && delta > 0;
  }
}
