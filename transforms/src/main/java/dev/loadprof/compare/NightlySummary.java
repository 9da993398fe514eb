package dev.loadprof.compare;

import dev.loadprof.report.AnalysisWriter;
import dev.loadprof.report.TextTable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

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

  static String render(Nightly n) {
    StringBuilder sb = new StringBuilder();
    sb.append("Latest night ").append(n.latestNight()).append("; ");
    List<String> benchmarks = n.nightsByBenchmark().entrySet().stream()
        .map(e -> e.getKey() + " (" + e.getValue().size() + " nights)").toList();
    sb.append("benchmarks: ").append(String.join(", ", benchmarks)).append(".\n");
    List<String> notes = new java.util.ArrayList<>(n.notes());
    n.latest().values().forEach(c -> notes.addAll(Interference.takerNotes(c.notes())));
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
      TextTable t = TextTable.labelsThenFigures();
      t.add("night", "benchmark", "entity", "before", "after", "delta", "kind (cause)");
      for (ChangePoint cp : realTime) {
        String entity = cp.key().process()
            + (cp.key().function() == null ? "" : " " + cp.key().function());
        t.add(cp.night().toString(), cp.key().group(), entity,
            Metric.REAL_TIME.format(cp.before()), Metric.REAL_TIME.format(cp.after()),
            cp.deltaPct() == null ? "new" : String.format(Locale.ROOT, "%+.1f%%", cp.deltaPct()),
            cp.kind() + (cp.attribution() == null ? "" : " (" + cp.attribution().cause().id
                + ")"));
      }
      t.render(sb, "");
    }
    sb.append("Latest night against the nights before it:\n");
    CompareSummary.changes(sb, n.changes());
    CompareSummary.verdict(sb, n.verdict(), n.settings().compare(), !n.changes().isEmpty());
    return sb.toString();
  }
}
