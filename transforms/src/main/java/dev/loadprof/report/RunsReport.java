package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import java.util.List;

/**
 * runs.txt: one row per run, sorted by run id, with its headline process's real and CPU time,
 * average load, serial fraction (time at load 1 / on-CPU wall time, exact from the run
 * intervals) and the speedup limit that fraction sets by Amdahl's law.
 */
public final class RunsReport implements TextReport {
  public static final String FILE_NAME = "runs.txt";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public Scope scope() {
    return Scope.MANY_RUNS;
  }

  @Override
  public String render(Analysis a) {
    StringBuilder sb = new StringBuilder();
    sb.append("# loadprof runs: the headline process of each run (the program perf started, else"
        + " most samples, after filters);")
        .append(" wall = real time from samples; serial = time at load 1 / on-CPU wall time;")
        .append(" amdahl = 1 / serial\n");
    List<RunRow> rows = RunRow.of(a);
    table(rows, rows.size()).render(sb, "");
    return sb.toString();
  }

  /** The first {@code limit} rows as a table with a header; shared with the console. */
  static TextTable table(List<RunRow> rows, int limit) {
    TextTable t = new TextTable(false, false, true, false, true, true, true, true, true);
    t.add("run", "host", "pid", "comm", "wall_s", "cpu_s", "avg_load", "serial", "amdahl");
    for (RunRow r : rows.subList(0, Math.min(limit, rows.size()))) {
      boolean none = r.headline() == null;
      SerialFraction s = r.serialFraction();
      t.add(
          r.runId(),
          r.host().isEmpty() ? "-" : r.host(),
          none ? "-" : Integer.toString(ProcessKey.pid(r.headline().pid)),
          none ? "-" : Printable.escape(r.comm()),
          none ? "-" : Text.seconds(r.wallNs()),
          none ? "-" : Text.seconds(r.cpuNs()),
          none ? "-" : Text.f("%.2f", r.avgLoad()),
          s.fractionText(),
          s.limitText());
    }
    return t;
  }
}
