package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * What loadprof compare prints on the console (and keeps as summary.txt): the runs, what the
 * run counts cannot conclude, the changes in benchstat's manner (regressions first, at most
 * {@link #MAX_ROWS}), and the verdict. The whole table is compare.txt.
 */
final class CompareSummary implements CompareWriter {
  static final int MAX_ROWS = 12;

  @Override
  public String fileName() {
    return AnalysisWriter.CONSOLE_SUMMARY_FILE;
  }

  @Override
  public void write(Analysis all, Comparison c, OutputStream out) throws IOException {
    out.write(render(c).getBytes(StandardCharsets.UTF_8));
  }

  static String render(Comparison c) {
    StringBuilder sb = new StringBuilder();
    Thresholds t = c.settings().thresholds();
    sb.append(String.format(Locale.ROOT, "Compared %d baseline with %d candidate runs (alpha"
        + " %.2f; thresholds %.1f%% and %s of real time).%n", c.baselineRuns().size(),
        c.candidateRuns().size(), c.settings().alpha(), 100 * t.minRelative(),
        Metric.REAL_TIME.format(t.minAbsoluteNs())));
    appendCommon(sb, c.excluded(), c.notes());
    changes(sb, c.changes());
    verdict(sb, c.verdict(), c.settings(), !c.changes().isEmpty());
    unsettled(sb, c);
    return sb.toString();
  }

  /**
   * Under "no change": each compared process whose median real time moved past the thresholds
   * without the change being significant. Two noisy runs a side can hide a doubled serial
   * section (median +43 %, p = 0.08 on a loaded machine); "no change" alone would read as
   * "nothing moved", so the line says what moved and that more runs settle it.
   */
  static void unsettled(StringBuilder sb, Comparison c) {
    if (c.verdict() != Verdict.NO_CHANGE) {
      return;
    }
    for (MetricComparison r : c.rows()) {
      if (r.metric() != Metric.REAL_TIME || r.key().isFunction() || r.significant()
          || !r.passesThresholds() || r.deltaPct() == null) {
        continue;
      }
      ConsoleTable.wrap(sb, String.format(Locale.ROOT, "not settled: %s's median real time"
          + " moved %+.1f%% (%s to %s), but with %d+%d runs this noisy that is not significant"
          + " (%s); record more runs a side (4 or more) to tell a change from noise",
          r.key().process(), r.deltaPct(), Metric.REAL_TIME.format(r.baseline()),
          Metric.REAL_TIME.format(r.candidate()), r.nBaseline(), r.nCandidate(),
          r.pValue() == null ? "no p-value" : String.format(Locale.ROOT, "p=%.3f", r.pValue())),
          "  ", "  ");
    }
  }

  /**
   * The verdict line; for interference, what it means and how it exits; for no change beside a
   * table of changes, that those changes (waits, load, CPU) do not set it, so that a reader who
   * sees "regression" in the table's kind column is not left to wonder.
   */
  static void verdict(StringBuilder sb, Verdict v, CompareSettings s, boolean changesListed) {
    sb.append("verdict: ").append(v.id).append('\n');
    if (v == Verdict.NO_CHANGE && changesListed) {
      sb.append("  real time did not change past the thresholds; the changes listed, in other"
          + " figures, do not set the verdict\n");
    }
    if (v == Verdict.INTERFERENCE) {
      ConsoleTable.wrap(sb, "the real time grew because the process's threads waited for CPUs"
          + " that other processes held, not because of its code; " + (s.failOnInterference()
          ? "exit " + Verdict.EXIT_INTERFERENCE + " (--fail-on-interference)"
          : "exit 0 (--fail-on-interference makes it exit " + Verdict.EXIT_INTERFERENCE + ")"),
          "  ", "  ");
    }
  }

  static void appendCommon(StringBuilder sb, List<ExcludedRun> excluded, List<String> notes) {
    for (ExcludedRun e : excluded) {
      sb.append("left out: ").append(e.runId()).append(": ").append(e.reason()).append('\n');
    }
    for (String n : notes) {
      sb.append("note: ").append(n).append('\n');
    }
  }

  /** The changes table, cut at MAX_ROWS. */
  static void changes(StringBuilder sb, List<MetricComparison> changes) {
    if (changes.isEmpty()) {
      sb.append("No significant change past the thresholds.\n");
      return;
    }
    CompareText.table(sb, changes.subList(0, Math.min(MAX_ROWS, changes.size())), true);
    if (changes.size() > MAX_ROWS) {
      sb.append("... and ").append(changes.size() - MAX_ROWS).append(" more changes\n");
    }
  }
}
