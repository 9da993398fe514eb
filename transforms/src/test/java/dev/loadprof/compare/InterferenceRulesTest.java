package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.compare.Attribution.Cause;
import dev.loadprof.compare.MetricComparison.Method;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The third cause: when interference takes a real-time change, and what the verdict says. */
class InterferenceRulesTest {
  private static final double MS = 1e6;

  static Stream<Arguments> causes() {
    // real 100 -> 200 ms at the same CPU (100 ms): all of the change is load.
    return Stream.of(
        Arguments.of("most of the load part is others' CPUs", 100, 200, 100, 100, 80,
            Cause.INTERFERENCE),
        Arguments.of("exactly half of the change", 100, 200, 100, 100, 50, Cause.INTERFERENCE),
        Arguments.of("less than half: the code lost parallelism", 100, 200, 100, 100, 40,
            Cause.PARALLELISM),
        Arguments.of("the wait for others fell while real time grew", 100, 200, 100, 100, -80,
            Cause.PARALLELISM),
        Arguments.of("the CPU work doubled: stays cpu", 100, 200, 100, 200, 150, Cause.CPU),
        Arguments.of("faster because the neighbour left", 200, 100, 100, 100, -90,
            Cause.INTERFERENCE),
        Arguments.of("both parts, interference the larger half", 100, 200, 100, 140, 60,
            Cause.INTERFERENCE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("causes")
  void interferenceTakesTheCauseWhenItIsAtLeastHalfTheChange(String name, double realB,
      double realC, double cpuB, double cpuC, double interferenceMs, Cause expected) {
    Attribution a = Attribution.of(realB * MS, cpuB * MS, realC * MS, cpuC * MS)
        .withInterference(interferenceMs * MS, 0);
    assertEquals(expected, a.cause());
    assertEquals(interferenceMs * MS, a.interferencePartNs(), 1e-6);
    assertEquals((realC - realB) * MS, a.cpuPartNs() + a.parallelismPartNs(), 1e-3);
    assertEquals(a.parallelismPartNs(), a.interferencePartNs() + a.oversubscriptionPartNs()
        + a.waitsPartNs(), 1e-3);
  }

  @Test
  void withoutThreadStatesThereIsNoInterferencePart() {
    assertEquals(Double.NaN, Attribution.of(1e8, 1e8, 2e8, 1e8).interferencePartNs());
  }

  static Stream<Arguments> verdicts() {
    MetricComparison interfered = realTime("bench", null, 100, 200, Cause.INTERFERENCE);
    MetricComparison lostParallelism = realTime("bench", "work", 100, 200, Cause.PARALLELISM);
    MetricComparison faster = realTime("other", null, 200, 100, Cause.PARALLELISM);
    return Stream.of(
        Arguments.of(List.of(interfered), Verdict.INTERFERENCE, 0, 5),
        Arguments.of(List.of(interfered, faster), Verdict.INTERFERENCE, 0, 5),
        Arguments.of(List.of(interfered, lostParallelism), Verdict.REGRESSION, 3, 3),
        Arguments.of(List.of(faster), Verdict.IMPROVEMENT, 0, 0));
  }

  @ParameterizedTest
  @MethodSource("verdicts")
  void theVerdictIsInterferenceOnlyWhenEveryRegressionIsInterference(
      List<MetricComparison> rows, Verdict expected, int exit, int exitFailingOnInterference) {
    assertEquals(expected, Verdict.of(rows));
    assertEquals(exit, expected.exitCode());
    assertEquals(exitFailingOnInterference, expected.exitCode(true));
  }

  @Test
  void functionsOfAnInterferedProcessInheritItsShare() {
    // The process: load part +100 ms, of it +80 ms others' CPUs. Its function: load part +50,
    // so +40 ms of interference (80 %), more than half of its +50 ms change.
    MetricComparison process = realTime("bench", null, 100, 200, Cause.INTERFERENCE)
        .withAttribution(new Attribution(0, 100 * MS, Cause.INTERFERENCE, 80 * MS, 10 * MS));
    MetricComparison function = realTime("bench", "work", 100, 150, Cause.PARALLELISM);
    List<MetricComparison> rows = Interference.spreadToFunctions(List.of(process, function));
    Attribution a = rows.get(1).attribution();
    assertEquals(Cause.INTERFERENCE, a.cause());
    assertEquals(40 * MS, a.interferencePartNs(), 1e-6);
    assertEquals(5 * MS, a.oversubscriptionPartNs(), 1e-6);
    assertEquals(5 * MS, a.waitsPartNs(), 1e-6);
    // Another process's function is left alone.
    MetricComparison elsewhere = realTime("other", "work", 100, 150, Cause.PARALLELISM);
    assertEquals(Cause.PARALLELISM, Interference.spreadToFunctions(List.of(process, elsewhere))
        .get(1).attribution().cause());
  }

  /** A significant real-time row of a process (function null) or function, all load. */
  private static MetricComparison realTime(String process, String function, double b, double c,
      Cause cause) {
    SeriesKey key = new SeriesKey("", process, function, Metric.REAL_TIME);
    String kind = c > b ? MetricComparison.REGRESSION : MetricComparison.IMPROVEMENT;
    return new MetricComparison(key, 5, 5, b * MS, c * MS, 100 * (c - b) / b, Method.MANN_WHITNEY,
        null, 0.008, true, true, true, kind, new Attribution(0, (c - b) * MS, cause), null,
        List.of(), List.of());
  }
}
