package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.compare.Attribution.Cause;
import org.junit.jupiter.api.Test;

class RulesTest {
  @Test
  void attributionPartsAddUpAndNameTheCause() {
    // crunch: CPU unchanged at 0.94 s, load 1.7 -> 1.0: real 0.553 s -> 0.94 s, all load.
    Attribution lostLoad = Attribution.of(0.94e9 / 1.7, 0.94e9, 0.94e9, 0.94e9);
    assertEquals(0, lostLoad.cpuPartNs(), 1e-3);
    assertEquals(0.94e9 - 0.94e9 / 1.7, lostLoad.parallelismPartNs(), 1e-3);
    assertEquals(Cause.PARALLELISM, lostLoad.cause());
    // Twice the CPU at the same load 2: all CPU.
    assertEquals(Cause.CPU, Attribution.of(1e9, 2e9, 2e9, 4e9).cause());
    // CPU 2 -> 3 s and load 2 -> 1.5: real 1 -> 2 s; CPU part 0.5 s, load part 0.5 s.
    Attribution both = Attribution.of(1e9, 2e9, 2e9, 3e9);
    assertEquals(0.5e9, both.cpuPartNs(), 1e-3);
    assertEquals(0.5e9, both.parallelismPartNs(), 1e-3);
    assertEquals(Cause.BOTH, both.cause());
    // A new function: no baseline CPU, so no baseline load; all of it is new work.
    assertEquals(Cause.CPU, Attribution.of(0, 0, 5e6, 5e6).cause());
  }

  @Test
  void thresholdsParse() {
    assertEquals(new Thresholds(0.02, 5_000_000), Thresholds.parse("2%,5ms"));
    assertEquals(new Thresholds(0.1, 10_000_000), Thresholds.parse("10%"));
    assertEquals(new Thresholds(0.05, 1_500_000_000L), Thresholds.parse("1.5s"));
    assertThrows(IllegalArgumentException.class, () -> Thresholds.parse("5 percent"));
    assertThrows(IllegalArgumentException.class, () -> Thresholds.parse("-5%"));
  }

  @Test
  void thresholdsKeepTinyChangesOut() {
    Thresholds t = Thresholds.DEFAULT;
    assertFalse(MetricRules.passes(Metric.REAL_TIME, 1e6, 5e6, 5e6, t), "+400% but 4 ms");
    assertFalse(MetricRules.passes(Metric.REAL_TIME, 1e9, 1.04e9, 1.04e9, t), "+40 ms but 4%");
    assertTrue(MetricRules.passes(Metric.REAL_TIME, 1e9, 1.06e9, 1.06e9, t));
    assertFalse(MetricRules.passes(Metric.AVG_LOAD, 2, 1, 5e6, t), "load of a 5 ms function");
    assertTrue(MetricRules.passes(Metric.AVG_LOAD, 2, 1, 50e6, t));
  }

  @Test
  void loadFallingIsARegression() {
    double[] b = {1.9, 1.95, 2.05, 2.1}; // no ties: the exact test
    double[] c = {0.9, 0.95, 1.05, 1.1};
    MetricComparison r = MetricRules.compare(new SeriesKey("", "app", null, Metric.AVG_LOAD), b,
        c, 1e9, null, CompareSettings.DEFAULT);
    assertTrue(r.change());
    assertEquals(MetricComparison.REGRESSION, r.kind());
    assertEquals(-50, r.deltaPct(), 1e-9);
    assertEquals(2.0 / 70, r.pValue(), 1e-12);
  }

  @Test
  void aPredictionIntervalStartsAtZeroAtTheLowest() {
    // Seen in a nightly on real runs: time at load 0 of 8-40 ms a night gave "expected
    // -11.3ms..39.9ms". No figure is below 0; the p-value is the interval's own.
    SeriesKey key = new SeriesKey("mixed", "mixed", null, Metric.timeAtLoad(0));
    double[] nights = {8e6, 40e6, 12e6, 9e6, 5e6};
    MetricComparison one = MetricRules.compare(key, nights, new double[] {260e6}, 2e9, null,
        CompareSettings.DEFAULT);
    assertEquals(MetricComparison.Method.PREDICTION_INTERVAL, one.method());
    assertEquals(0.0, one.intervalLow(), "from 0, not below");
    assertTrue(one.intervalHigh() > 40e6, one.toString());
    assertTrue(one.significant(), one.toString());
  }
}
