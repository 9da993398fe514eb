package dev.loadprof.compare;

import dev.loadprof.compare.MetricComparison.Method;
import dev.loadprof.compare.stats.HodgesLehmann;
import dev.loadprof.compare.stats.MannWhitney;
import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.compare.stats.PredictionInterval;
import java.util.List;
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
      // Every figure is a time, a load or a share, never below 0: an interval reaching below 0
      // (a wide spread around a small median) is shown from 0, which it covers the same.
      low = Math.max(0, pi.lower());
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
        significant, passes, change, kind, attribution, note, List.of(), List.of());
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
    return new MetricComparison(key, b.length, c.length, mb, mc, null, Method.NONE, null, null,
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
