package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import dev.loadprof.report.TextTable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * compare.txt, in the spirit of benchstat: the verdict, then the changes (regressions first),
 * then the unchanged figures of the processes and their top functions, with "~" where the
 * difference is not significant. Real-time changes carry their cause and the two parts.
 */
public final class CompareText implements CompareWriter {
  public static final String FILE_NAME = "compare.txt";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Analysis all, Comparison c, OutputStream out) throws IOException {
    write(c, out);
  }

  public void write(Comparison c, OutputStream out) throws IOException {
    out.write(render(c).getBytes(StandardCharsets.UTF_8));
  }

  public String render(Comparison c) {
    StringBuilder sb = new StringBuilder();
    CompareSettings s = c.settings();
    sb.append(f("baseline: %d runs (%s)%n", c.baselineRuns().size(),
        String.join(", ", c.baselineRuns())));
    sb.append(f("candidate: %d runs (%s)%n", c.candidateRuns().size(),
        String.join(", ", c.candidateRuns())));
    for (ExcludedRun e : c.excluded()) {
      sb.append("left out of the statistics: ").append(e.runId()).append(": ")
          .append(e.reason()).append('\n');
    }
    sb.append(f("alpha %.2f; thresholds %.1f%% and %s of real time; medians of the runs%n",
        s.alpha(), 100 * s.thresholds().minRelative(),
        Metric.REAL_TIME.format(s.thresholds().minAbsoluteNs())));
    for (String n : c.notes()) {
      sb.append("note: ").append(n).append('\n');
    }
    List<MetricComparison> changes = c.changes();
    CompareSummary.verdict(sb, c.verdict(), s, !changes.isEmpty());

    sb.append('\n');
    if (changes.isEmpty()) {
      sb.append("no significant change past the thresholds\n");
    } else {
      sb.append("changes\n");
      table(sb, changes, true);
    }
    List<MetricComparison> rest = unchanged(c);
    if (!rest.isEmpty()) {
      sb.append("\nother figures of the main processes and their top functions\n");
      table(sb, rest, false);
    }
    return sb.toString();
  }

  /**
   * Not-changed rows of processes with real time past the absolute threshold, and of their top
   * functions by real time; every function's row would drown the table.
   */
  private static List<MetricComparison> unchanged(Comparison c) {
    long minNs = c.settings().thresholds().minAbsoluteNs();
    List<MetricComparison> processReal = new ArrayList<>();
    List<MetricComparison> functionReal = new ArrayList<>();
    for (MetricComparison r : c.rows()) {
      if (r.metric().isRealTime() && Math.max(r.baseline(), r.candidate()) >= minNs) {
        (r.key().isFunction() ? functionReal : processReal).add(r);
      }
    }
    functionReal.sort(Comparator.comparingDouble((MetricComparison r) -> -r.baseline()));
    List<SeriesKey> entities = new ArrayList<>();
    processReal.forEach(r -> entities.add(r.key()));
    for (MetricComparison p : processReal) {
      int shown = 0;
      for (MetricComparison fn : functionReal) {
        if (shown < c.settings().tableFunctions() && fn.key().group().equals(p.key().group())
            && fn.key().process().equals(p.key().process())) {
          entities.add(fn.key());
          shown++;
        }
      }
    }
    List<MetricComparison> out = new ArrayList<>();
    for (MetricComparison r : c.rows()) {
      if (!r.change() && entities.contains(r.key().with(Metric.REAL_TIME))) {
        out.add(r);
      }
    }
    return out;
  }

  static void table(StringBuilder sb, List<MetricComparison> rows, boolean changes) {
    TextTable t = TextTable.labelsThenFigures();
    t.add("", "metric", "baseline", "candidate", "delta", "interval", "p", "n", changes
        ? "kind (cause: cpu part, load part)" : "");
    for (MetricComparison r : rows) {
      t.add(r.key().entityName(), r.metric().id(), r.metric().format(r.baseline()),
          r.metric().format(r.candidate()), delta(r), interval(r), p(r),
          r.nBaseline() + "+" + r.nCandidate(), changes ? kind(r) : "");
    }
    t.render(sb, "");
  }

  static String delta(MetricComparison r) {
    if (MetricComparison.MISSING.equals(r.kind())) {
      return "-";
    }
    if (!r.change()) {
      return "~";
    }
    return r.deltaPct() == null ? "new" : f("%+.1f%%", r.deltaPct());
  }

  static String interval(MetricComparison r) {
    if (r.interval() == null) {
      return "-";
    }
    if (r.interval().kind() == Interval.Kind.PREDICTION) {
      return "expected " + r.metric().format(r.intervalLow()) + ".."
          + r.metric().format(r.intervalHigh());
    }
    return f("[%+.1f%%, %+.1f%%]", r.intervalLow(), r.intervalHigh());
  }

  static String p(MetricComparison r) {
    return r.pValue() == null ? "-" : f("p=%.3f", r.pValue());
  }

  static String kind(MetricComparison r) {
    String k = r.kind() == null ? "" : r.kind();
    Attribution a = r.attribution();
    if (a == null) {
      return k;
    }
    String others = Double.isNaN(a.interferencePartNs()) ? ""
        : ", of it waiting for others' CPUs " + signed(a.interferencePartNs());
    if (!Double.isNaN(a.waitsPartNs())) {
      others += ", for its own " + signed(a.oversubscriptionPartNs()) + ", waits "
          + signed(a.waitsPartNs());
    }
    return f("%s (%s: cpu %s, load %s%s)", k, a.cause().id, signed(a.cpuPartNs()),
        signed(a.parallelismPartNs()), others);
  }

  static String signed(double ns) {
    return (ns >= 0 ? "+" : "") + Metric.REAL_TIME.format(ns);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
