package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
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
    CompareSummary.unsettled(sb, c);

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

  /**
   * The changes (with kind, and the interval and cause on the line below) or the other figures
   * (with the interval in its column), in at most {@link ConsoleTable#WIDTH} columns.
   */
  static void table(StringBuilder sb, List<MetricComparison> rows, boolean changes) {
    ConsoleTable t = changes
        ? new ConsoleTable(true, "", "metric", "baseline", "candidate", "delta", "p", "n", "kind")
        : new ConsoleTable(false, "", "metric", "baseline", "candidate", "delta", "interval", "p",
            "n");
    for (MetricComparison r : rows) {
      String entity = r.key().entityName();
      String metric = r.metric().id();
      String baseline = r.metric().format(r.baseline());
      String candidate = r.metric().format(r.candidate());
      String n = r.nBaseline() + "+" + r.nCandidate();
      if (changes) {
        t.add(detail(r), entity, metric, baseline, candidate, delta(r), p(r), n,
            r.kind() == null ? "" : r.kind());
      } else {
        t.add(null, entity, metric, baseline, candidate, delta(r), interval(r), p(r), n);
      }
    }
    t.render(sb);
  }

  static String delta(MetricComparison r) {
    if (MetricComparison.MISSING.equals(r.kind())) {
      return "-";
    }
    if (!r.change()) {
      return "~";
    }
    return r.deltaPct() == null ? "new" : pct(r.deltaPct());
  }

  /** "+12.3%", "+1234%": one decimal below 100 %, none above. */
  static String pct(double v) {
    return Math.abs(v) < 100 ? f("%+.1f%%", v) : f("%+.0f%%", v);
  }

  static String interval(MetricComparison r) {
    Interval i = r.interval();
    if (i == null) {
      return "-";
    }
    if (i.kind() == Interval.Kind.PREDICTION) {
      return "expected " + r.metric().format(i.low()) + ".." + r.metric().format(i.high());
    }
    return "[" + pct(i.low()) + ", " + pct(i.high()) + "]";
  }

  /**
   * The line under a change: its interval (said when cut at -100 % or 0) and, for real time,
   * its cause with the CPU part and the load part (and the load part's split, where known).
   */
  static String detail(MetricComparison r) {
    List<String> parts = new ArrayList<>();
    Interval i = r.interval();
    if (i != null) {
      String what = i.kind() == Interval.Kind.PREDICTION ? "" : "interval ";
      parts.add(what + interval(r) + (!i.clipped() ? ""
          : i.kind() == Interval.Kind.PREDICTION ? " (cut at 0: no figure is below 0)"
              : " (cut at -100%: no figure is below 0)"));
    }
    String cause = cause(r.attribution());
    if (cause != null) {
      parts.add(cause);
    }
    return parts.isEmpty() ? null : String.join("; ", parts);
  }

  /** "cause cpu: cpu +80.1ms, load +0.3ms", with the load part's split; null without one. */
  static String cause(Attribution a) {
    if (a == null) {
      return null;
    }
    String others = "";
    if (!Double.isNaN(a.interferencePartNs())) {
      others = " (of the load part: waiting for others' CPUs " + signed(a.interferencePartNs());
      if (!Double.isNaN(a.waitsPartNs())) {
        others += ", for its own " + signed(a.oversubscriptionPartNs()) + ", waits "
            + signed(a.waitsPartNs());
      }
      others += ")";
    }
    String moved = a.cause() != Attribution.Cause.MOVED ? ""
        : "; the process's CPU time did not grow: this CPU moved here from its other functions";
    return f("cause %s: cpu %s, load %s%s%s%s", a.cause().id, signed(a.cpuPartNs()),
        signed(a.parallelismPartNs()), others, moved, critical(a.critical()));
  }

  /**
   * "; critical path +0.8s, most in serial_section +0.8s" (a process), "; on the critical path
   * +0.8s of the path's +0.8s" (a function's own); "" without a path on every run.
   */
  static String critical(Attribution.CriticalChange c) {
    if (c == null) {
      return "";
    }
    String path = signed(c.pathChangeNs());
    if (c.own()) {
      return "; on the critical path " + signed(c.functionChangeNs()) + " of the path's " + path;
    }
    return "; critical path " + path + (c.function() == null
        ? ", no function's time on it changed that way"
        : ", most in " + c.function() + " " + signed(c.functionChangeNs()));
  }

  /** "p=0.008"; "p<0.001" below what three decimals show. */
  static String p(MetricComparison r) {
    if (r.pValue() == null) {
      return "-";
    }
    return r.pValue() < 0.0005 ? "p<0.001" : f("p=%.3f", r.pValue());
  }

  static String signed(double ns) {
    return (ns >= 0 ? "+" : "") + Metric.REAL_TIME.format(ns);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
