package dev.loadprof.report;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.ProcessLoad;
import java.util.List;

/** summary.txt: the short summary printed to the terminal at the end of a run. */
public final class ConsoleSummary implements TextReport {
  public static final String FILE_NAME = "summary.txt";
  public static final int TOP_FUNCTIONS = 10;
  public static final int TOP_WAITS = 5;
  /** Runs listed in the per-run table; runs.txt has them all. */
  public static final int MAX_RUNS = 10;

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public String render(Analysis a) {
    StringBuilder sb = new StringBuilder();
    ProcessLoad h = a.headline();
    if (h == null) {
      sb.append(a.nothingLeftNote().isEmpty() ? "No process samples found.\n"
          : "No process samples found: " + a.nothingLeftNote() + ".\n");
    } else {
      String subject = SubjectNote.of(a);
      if (!subject.isEmpty()) {
        sb.append(subject).append('\n');
      }
      sb.append(Text.processHeader(a, h)).append('\n');
      String wall = WallView.wallLine(h);
      if (wall != null) {
        sb.append(wall).append('\n');
      }
      sb.append("Real time at load:\n");
      Text.histogram(sb, h, true, "  ");
      FunctionTable t = FunctionTable.of(a, h);
      sb.append("Top functions by real time (load filter: ").append(a.loadFilter())
          .append(a.sampleFilter().isEmpty() ? "" : "; samples: " + a.sampleFilter())
          .append("):\n");
      sb.append(Text.f("  %7s %7s %8s  %s", "real%", "cpu%", "avgload", "function")).append('\n');
      for (FunctionRow r : t.top(TOP_FUNCTIONS)) {
        sb.append(
                Text.f(
                    "  %6.2f%% %6.2f%% %8s  %s",
                    r.flatRealPct(), r.flatCpuPct(), Text.avgLoad(r), Printable.escape(r.name())))
            .append('\n');
      }
      List<String> waits = WallView.topWaits(h, TOP_WAITS);
      if (!waits.isEmpty()) {
        sb.append("Top waits by load-0 time (while none of its threads ran):\n");
        waits.forEach(w -> sb.append("  ").append(w).append('\n'));
      }
      a.criticalPath(h).ifPresent(c -> CriticalSummary.console(sb, c));
    }
    if (a.runs().size() > 1) {
      runTable(sb, a);
    }
    for (RunInfo r : a.runs()) {
      long malformed = r.health.get(TraceHealth.MALFORMED_LINES);
      // What a per-process recording cannot see is the console's info line, not a warning.
      long warnings = r.warnings.stream()
          .filter(w -> !w.startsWith(r.source + ": " + RunInfo.PER_PROCESS_LIMIT)).count();
      if (malformed != 0 || warnings != 0) {
        sb.append(
                Text.f(
                    "run %s: %d malformed lines, %d warnings (see summary.json)",
                    r.runId, malformed, warnings))
            .append('\n');
      }
    }
    return sb.toString();
  }

  /** The first runs by id, then how many more there are in runs.txt. */
  private static void runTable(StringBuilder sb, Analysis a) {
    List<RunRow> rows = RunRow.of(a);
    sb.append("Runs (headline process; serial = time at load 1 / on-CPU time):\n");
    RunsReport.table(rows, MAX_RUNS).render(sb, "  ");
    if (rows.size() > MAX_RUNS) {
      sb.append(Text.f("  ... %d more (see runs.txt)", rows.size() - MAX_RUNS)).append('\n');
    }
  }
}
