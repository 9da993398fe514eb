package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict's lines on the console, in compare.txt and in nightly's summary. */
class CompareSummaryTest {
  private static String verdict(Verdict v, boolean changesListed) {
    StringBuilder sb = new StringBuilder();
    CompareSummary.verdict(sb, v, CompareSettings.DEFAULT, changesListed);
    return sb.toString();
  }

  @Test
  void noChangeBesideChangesSaysTheyDoNotSetIt() {
    // Seen on real runs with a busy neighbour: waits and load changed, real time did not, and
    // the table's kind column says "regression" for those figures.
    String text = verdict(Verdict.NO_CHANGE, true);
    assertTrue(text.startsWith("verdict: no change\n"), text);
    assertTrue(text.contains("real time did not change past the thresholds"), text);
    assertTrue(text.contains("do not set the verdict"), text);
  }

  @Test
  void noChangeAloneIsOneLine() {
    assertEquals("verdict: no change\n", verdict(Verdict.NO_CHANGE, false));
  }

  @Test
  void otherVerdictsKeepTheirLines() {
    assertEquals("verdict: regression\n", verdict(Verdict.REGRESSION, true));
    String interference = verdict(Verdict.INTERFERENCE, true);
    assertTrue(interference.startsWith("verdict: interference\n  the real time grew"),
        interference);
    assertTrue(interference.replaceAll("\n +", " ")
        .endsWith("exit 0 (--fail-on-interference makes it exit 5)\n"), interference);
    assertTrue(interference.lines().allMatch(l -> l.length() <= ConsoleTable.WIDTH),
        "wrapped at 100 columns: " + interference);
  }

  /**
   * Two noisy runs a side of a doubled serial section (recorded on a loaded machine: median real
   * time 673.5 ms to 966.7 ms, p = 0.084 by the t-test): the verdict stays "no change", as the
   * test says, and a line under it says what moved and that more runs settle it.
   */
  @Test
  void noChangeWithAMovedButNoisyRealTimeSaysItIsNotSettled() {
    SeriesKey key = new SeriesKey("", "mixed", null, Metric.REAL_TIME);
    MetricComparison noisy = new MetricComparison(key, 2, 2, 673.5e6, 966.7e6, 43.5,
        MetricComparison.Method.T_TEST, null, 0.084, false, true, false, "", null, null,
        List.of(), List.of());
    Comparison c = new Comparison(CompareSettings.DEFAULT, List.of("b1", "b2"),
        List.of("c1", "c2"), List.of(), List.of(noisy), List.of());
    assertEquals(Verdict.NO_CHANGE, c.verdict());
    String console = CompareSummary.render(c).replaceAll("\n +", " ");
    assertTrue(console.contains("verdict: no change not settled: mixed's median real time moved"
        + " +43.5% (673.5ms to 966.7ms), but with 2+2 runs this noisy that is not significant"
        + " (p=0.084); record more runs a side"), console);
    assertTrue(new CompareText().render(c).contains("not settled: mixed's"));

    MetricComparison quiet = new MetricComparison(key, 2, 2, 673.5e6, 680e6, 1.0,
        MetricComparison.Method.T_TEST, null, 0.6, false, false, false, "", null, null,
        List.of(), List.of());
    String calm = CompareSummary.render(new Comparison(CompareSettings.DEFAULT, List.of("b1"),
        List.of("c1"), List.of(), List.of(quiet), List.of()));
    assertTrue(!calm.contains("not settled"), calm);
  }
}
