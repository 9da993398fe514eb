package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.compare;
import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.compare.Attribution.Cause;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * compare on the recorded fixtures: 5 runs each of {@code mixed 80 2} (base), {@code mixed 80 2
 * 3} (cpu: serial section 2 -> 3 ms) and {@code mixed 80 1} (par: one worker instead of two),
 * benchmark process only, as with --comm '^mixed$'.
 */
class CompareFixturesTest {
  static final String MIXED = "mixed";

  static MetricComparison row(Comparison c, String function, Metric m) {
    MetricComparison r = c.row(new SeriesKey("", MIXED, function, m));
    assertNotNull(r, function + " " + m.id() + " compared");
    return r;
  }

  static String describe(Comparison c) {
    return new CompareText().render(c);
  }

  @Test
  void cpuRegressionInSerialSectionIsCpu() {
    Comparison c = compare(runs("base", 1, 2, 3, 4, 5), runs("cpu", 1, 2, 3, 4, 5));
    MetricComparison serial = row(c, "serial_section", Metric.REAL_TIME);
    assertTrue(serial.change(), describe(c));
    assertEquals(MetricComparison.REGRESSION, serial.kind());
    assertEquals(Cause.CPU, serial.attribution().cause(), describe(c));
    // cpu-1 has one -1/-1 sample of ~3400: counted in its health, no warning, so it stays in.
    assertTrue(c.excluded().isEmpty(), describe(c));
    assertEquals(2.0 / 252, serial.pValue(), 1e-12, "every cpu run above every base run");
    // 80 iterations x 1 ms more serial work: about 80 ms more real time, nearly all CPU.
    assertEquals(80e6, serial.delta(), 8e6);
    assertEquals(serial.delta(), serial.attribution().cpuPartNs()
        + serial.attribution().parallelismPartNs(), 1e-3, "the parts add up");
    assertFalse(row(c, "parallel_section", Metric.REAL_TIME).change(), describe(c));
    assertEquals(Verdict.REGRESSION, c.verdict());
    assertEquals(3, c.exitCode());
  }

  @Test
  void parallelismRegressionInParallelSectionIsParallelism() {
    Comparison c = compare(runs("base", 1, 2, 3, 4, 5), runs("par", 1, 2, 3, 4, 5));
    MetricComparison parallel = row(c, "parallel_section", Metric.REAL_TIME);
    assertTrue(parallel.change(), describe(c));
    assertEquals(MetricComparison.REGRESSION, parallel.kind());
    assertEquals(Cause.PARALLELISM, parallel.attribution().cause(), describe(c));
    MetricComparison process = row(c, null, Metric.REAL_TIME);
    assertTrue(process.change(), describe(c));
    assertEquals(Cause.PARALLELISM, process.attribution().cause(), describe(c));
    MetricComparison load = row(c, null, Metric.AVG_LOAD);
    assertTrue(load.change() && load.candidate() < 1.05, "load fell to about 1: " + load);
    assertFalse(row(c, "serial_section", Metric.REAL_TIME).change(), describe(c));
    assertEquals(3, c.exitCode());
  }

  @Test
  void oneCandidateRunIsJudgedByThePredictionInterval() {
    Comparison c = compare(runs("base", 1, 2, 3, 4), runs("cpu", 5));
    MetricComparison serial = row(c, "serial_section", Metric.REAL_TIME);
    assertEquals(MetricComparison.Method.PREDICTION_INTERVAL, serial.method());
    assertTrue(serial.change(), describe(c));
    assertTrue(serial.candidate() > serial.intervalHigh(), "outside the interval");
    assertEquals(Cause.CPU, serial.attribution().cause());
  }

  /**
   * Five base runs cannot make two Mann–Whitney sides that could ever be significant (3 vs 2:
   * smallest p 0.2), so a 3 vs 2 split would pass whatever the code did. Each base run is
   * instead held out as a single candidate against the prediction interval of the other four,
   * which does flag runs (it flags cpu-5 above): five chances to raise a false alarm.
   */
  @Test
  void baseAgainstBaseRaisesNothing() {
    List<String> alarms = new ArrayList<>();
    for (int k = 1; k <= 5; k++) {
      List<String> others = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        if (i != k) {
          others.add("base-" + i);
        }
      }
      Comparison c = compare(others, runs("base", k));
      if (!c.changes().isEmpty() || c.verdict() != Verdict.NO_CHANGE) {
        alarms.add("base-" + k + ": " + c.changes().stream()
            .map(r -> r.key().entityName() + " " + r.metric().id()).collect(Collectors.toList()));
      }
    }
    assertEquals(List.of(), alarms);
  }

  @Test
  void tooFewRunsForSignificanceIsSaid() {
    Comparison c = compare(runs("base", 1, 2, 3), runs("cpu", 2, 3));
    assertEquals(Verdict.NO_CHANGE, c.verdict(), "3 vs 2 runs can never be significant");
    assertTrue(c.notes().get(0).contains("smallest possible p is 0.200"), c.notes().get(0));
    assertTrue(describe(c).contains("Use at least 4 runs a side"), describe(c));
    assertFalse(row(c, "serial_section", Metric.REAL_TIME).significant());
  }

  @Test
  void oneRunEachSideAppliesOnlyTheThresholds() {
    Comparison c = compare(runs("base", 1), runs("cpu", 2));
    MetricComparison serial = row(c, "serial_section", Metric.REAL_TIME);
    assertEquals(MetricComparison.Method.NONE, serial.method());
    assertEquals(null, serial.pValue());
    assertTrue(serial.change(), "+50% and +80 ms pass the thresholds");
    assertTrue(c.notes().get(0).startsWith("one baseline run: no significance can be claimed"));
  }
}
