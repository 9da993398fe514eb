package dev.loadprof.compare;

import dev.loadprof.report.AnalysisWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What loadprof nightly prints on the console (and keeps as summary.txt): the nights per
 * benchmark, the real-time change points, the latest night's changes and the verdict. All
 * figures are in nightly.json and history.csv.
 */
final class NightlySummary implements NightlyWriter {
  @Override
  public String fileName() {
    return AnalysisWriter.CONSOLE_SUMMARY_FILE;
  }

  @Override
  public void write(Nightly n, OutputStream out) throws IOException {
    out.write(render(n).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * For a latest night without a regression: that the level of real time is still changed
   * against the nights before the last change point, naming up to {@link #STILL_NAMED} figures;
   * null when no level is.
   */
  static String stillChanged(Nightly n) {
    List<ChangePoint> still = n.stillChanged();
    if (still.isEmpty() || n.verdict() == Verdict.REGRESSION || n.verdict() == Verdict.MISSING) {
      return null;
    }
    List<String> named = still.subList(0, Math.min(STILL_NAMED, still.size())).stream()
        .map(cp -> cp.key().entityName() + " " + (cp.deltaPct() == null ? "new"
            : CompareText.pct(cp.deltaPct())) + " since " + cp.night() + " (" + cp.kind() + ")")
        .toList();
    return "the latest night is like the nights since the last change point, but real time is"
        + " still changed against the nights before it: " + String.join(", ", named)
        + (still.size() > STILL_NAMED ? " and " + (still.size() - STILL_NAMED) + " more" : "");
  }

  static final int STILL_NAMED = 3;

  /**
   * A benchmark's latest comparison's notes for the console: how its latest night is judged
   * (which test, and why when the rank test cannot reach the level), runs a process did not
   * run in, and who took the CPUs; the count of figures judged together stays in nightly.json.
   */
  static List<String> latestNotes(String benchmark, Comparison c) {
    List<String> out = new java.util.ArrayList<>();
    List<String> takers = Interference.takerNotes(c.notes());
    for (String note : c.notes()) {
      if (takers.contains(note)) {
        out.add(note);
      } else if (!note.endsWith(Compare.HOLM_NOTE)) {
        out.add("benchmark " + benchmark + ": " + note);
      }
    }
    return out;
  }

  static String render(Nightly n) {
    StringBuilder sb = new StringBuilder();
    sb.append("Latest night ").append(n.latestNight()).append("; ");
    List<String> benchmarks = n.nightsByBenchmark().entrySet().stream()
        .map(e -> e.getKey() + " (" + e.getValue().size() + " nights)").toList();
    sb.append("benchmarks: ").append(String.join(", ", benchmarks)).append(".\n");
    List<String> notes = new java.util.ArrayList<>(n.notes());
    n.latest().forEach((benchmark, c) -> notes.addAll(latestNotes(benchmark, c)));
    CompareSummary.appendCommon(sb, n.excluded(), notes);
    List<ChangePoint> realTime = n.changePoints().stream()
        .filter(cp -> cp.key().metric().isRealTime()).toList();
    if (realTime.isEmpty()) {
      sb.append("No real-time change point in the history (")
          .append(n.changePoints().size()).append(" of other figures).\n");
    } else {
      int others = n.changePoints().size() - realTime.size();
      sb.append("Real-time change points").append(others == 0 ? ""
          : " (" + others + " more of other figures in nightly.json)").append(":\n");
      ConsoleTable t = new ConsoleTable(true, "", "night", "before", "after", "delta",
          "kind");
      for (ChangePoint cp : realTime) {
        t.add(CompareText.cause(cp.attribution()), cp.key().entityName(),
            cp.night().toString(), Metric.REAL_TIME.format(cp.before()),
            Metric.REAL_TIME.format(cp.after()),
            cp.deltaPct() == null ? "new" : CompareText.pct(cp.deltaPct()), cp.kind());
      }
      t.render(sb);
    }
    sb.append("Latest night against the nights before it:\n");
    CompareSummary.changes(sb, n.changes());
    CompareSummary.verdict(sb, n.verdict(), n.settings().compare(), !n.changes().isEmpty());
    String still = stillChanged(n);
    if (still != null) {
      ConsoleTable.wrap(sb, still, "  ", "  ");
    }
    return sb.toString();
  }
}
