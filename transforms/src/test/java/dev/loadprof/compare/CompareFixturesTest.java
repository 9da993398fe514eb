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
   * Unchanged runs: each base run held out as a single candidate against the prediction
   * interval of the other four (which does flag cpu-5 above), and every split of the five base
   * runs into 3 vs 2 and 2 vs 3, which the rank test could never find significant (smallest p
   * 0.2) and the t-test now judges. The base runs have two modes: in base-1 and base-3 the two
   * workers overlapped less (real time 582 and 585 ms, time at load 1 447 and 421 ms, against
   * 510-534 ms and 225-300 ms in the others). The two splits that put exactly those runs on one
   * side are told apart, as a parallelism change, by any test that can call 3 vs 2 runs
   * significant: the runs did differ, and 5 runs cannot show that this is how the benchmark
   * varies. Every other split, and every single run, raises nothing.
   */
  @Test
  void baseAgainstBaseRaisesNothing() {
    List<String> alarms = new ArrayList<>();
    for (int mask = 1; mask < 31; mask++) {
      List<String> baseline = new ArrayList<>();
      List<String> candidate = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        ((mask >> (i - 1) & 1) == 1 ? candidate : baseline).add("base-" + i);
      }
      if (candidate.size() > 3 || baseline.size() > 4) {
        continue; // the held-out singles, 3 vs 2 and 2 vs 3
      }
      Comparison c = compare(baseline, candidate);
      boolean modesApart = candidate.equals(List.of("base-1", "base-3"))
          || baseline.equals(List.of("base-1", "base-3"));
      if (modesApart) {
        assertEquals(Cause.PARALLELISM, row(c, null, Metric.REAL_TIME).attribution().cause(),
            describe(c));
      } else if (c.verdict() != Verdict.NO_CHANGE) {
        alarms.add(candidate + ": " + c.changes().stream()
            .map(r -> r.key().entityName() + " " + r.metric().id()).collect(Collectors.toList()));
      }
    }
    assertEquals(List.of(), alarms);
  }

  /**
   * 3 vs 2 runs: the rank test's smallest p is 0.2, so on main nothing could ever be significant
   * and the serial section's +50% was "no change". The t-test on the logarithms judges it.
   */
  @Test
  void tooFewRunsForTheRankTestAreJudgedByTheTTest() {
    Comparison c = compare(runs("base", 1, 2, 3), runs("cpu", 2, 3));
    assertEquals(Verdict.REGRESSION, c.verdict(), describe(c));
    assertTrue(c.notes().get(0).contains("smallest possible p is 0.200"), c.notes().get(0));
    assertTrue(c.notes().get(0).contains("Student's t-test on their logarithms"), describe(c));
    MetricComparison serial = row(c, "serial_section", Metric.REAL_TIME);
    assertEquals(MetricComparison.Method.T_TEST, serial.method());
    assertTrue(serial.change(), describe(c));
    assertEquals(Cause.CPU, serial.attribution().cause());
    assertEquals(Interval.Kind.RATIO_PCT, serial.interval().kind());
    assertTrue(serial.intervalLow() > 0, "the whole interval above 0: " + serial.interval());
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
