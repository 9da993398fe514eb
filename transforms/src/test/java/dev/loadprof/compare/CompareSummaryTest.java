package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
