package dev.loadprof.report;

import dev.loadprof.profile.ProcessLoad;
import java.util.ArrayList;
import java.util.List;

/**
 * functions.txt: per process, functions ranked by flat real-time share, with the real time that
 * would be saved if each ran at the process's best observed average load.
 */
public final class FunctionsReport implements TextReport {
  public static final String FILE_NAME = "functions.txt";
  /** Rows per process. */
  public static final int MAX_ROWS = 50;
  /** Processes with a smaller share of all samples are left out (the headline never is). */
  public static final double MIN_PROCESS_SHARE = 0.01;

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  /** The processes shown: at least 1% of all samples, and always the headline. */
  static List<ProcessLoad> shownProcesses(Analysis a) {
    long total = a.totalSamples();
    ProcessLoad headline = a.headline();
    List<ProcessLoad> shown = new ArrayList<>();
    for (ProcessLoad p : a.processes()) {
      if (p == headline || (p.pid != 0 && p.samples >= MIN_PROCESS_SHARE * total)) {
        shown.add(p);
      }
    }
    return shown;
  }

  @Override
  public String render(Analysis a) {
    StringBuilder sb = new StringBuilder();
    sb.append("# loadprof functions by flat real time; load filter: ")
        .append(a.loadFilter())
        .append("; saved% = real% x (1 - avgload/best), best = highest avg load among the")
        .append(" process's functions with >= 1% flat real time\n");
    for (ProcessLoad p : shownProcesses(a)) {
      FunctionTable t = FunctionTable.of(a, p);
      sb.append('\n').append(Text.processHeader(a, p)).append('\n');
      sb.append(
              Text.f(
                  "real %s s, CPU %s s within the load filter; best avg load %.2f",
                  Text.seconds(t.totalWallNs()), Text.seconds(t.totalCpuNs()), t.bestLoad()))
          .append('\n');
      sb.append(header()).append('\n');
      for (FunctionRow r : t.top(MAX_ROWS)) {
        sb.append(row(r)).append('\n');
      }
    }
    return sb.toString();
  }

  static String header() {
    return Text.f(
        "%8s %8s %8s %8s %8s  %s", "flat%", "cum%", "cpu%", "avgload", "saved%", "function");
  }

  static String row(FunctionRow r) {
    return Text.f(
        "%7.2f%% %7.2f%% %7.2f%% %8s %7.2f%%  %s",
        r.flatRealPct(),
        r.cumRealPct(),
        r.flatCpuPct(),
        Text.avgLoad(r),
        r.savedPct(),
        Printable.escape(r.name()));
  }
}
