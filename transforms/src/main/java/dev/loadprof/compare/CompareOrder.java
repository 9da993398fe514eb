package dev.loadprof.compare;

import java.util.Comparator;

/** The order of changes in every output: regressions first, then processes missing from a side, real time first, biggest first. */
final class CompareOrder {
  private CompareOrder() {}

  static final Comparator<MetricComparison> CHANGES =
      Comparator.comparingInt((MetricComparison c) -> MetricComparison.REGRESSION.equals(c.kind())
              ? 0 : MetricComparison.MISSING.equals(c.kind()) ? 1 : 2)
          .thenComparing(c -> !c.metric().isRealTime())
          .thenComparing(c -> c.key().isFunction())
          .thenComparing(c -> -Math.abs(c.metric().isTime() ? c.delta() : 0))
          .thenComparing(MetricComparison::key);
}
