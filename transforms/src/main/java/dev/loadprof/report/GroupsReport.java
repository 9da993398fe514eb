package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import dev.loadprof.profile.ProcessLoad;

/**
 * groups.txt: per group of (run, process) pairs, the load histograms in the layout of
 * histogram.txt and the top functions in the columns of functions.txt. Histograms sum the
 * members' ns, so each run weighs by its time; they are not load-filtered, the functions are.
 */
public final class GroupsReport implements TextReport {
  public static final String FILE_NAME = "groups.txt";
  /** Function rows per group. */
  public static final int MAX_ROWS = 20;
  /** Members listed by name per group; summary.json lists them all. */
  public static final int MAX_MEMBERS_SHOWN = 20;

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
    sb.append("# loadprof groups, group-by ").append(a.groupBy()).append(describe(a.groupBy()))
        .append("; histograms sum the members' ns (each run weighs by its time), not load-filtered;")
        .append(" functions: load filter ").append(a.loadFilter()).append('\n');
    for (ProcessGroup g : Grouping.of(a)) {
      ProcessLoad t = g.total();
      SerialFraction serial = g.serialFraction();
      sb.append('\n')
          .append(
              Text.f(
                  "group %s: %s in %s, %d samples, CPU %s s, real %s s,"
                      + " avg load %.2f, serial fraction %s (Amdahl limit %s)",
                  Printable.escape(g.name()),
                  count(g.members().size(), "process", "processes"),
                  count(g.runCount(), "run", "runs"),
                  t.samples,
                  Text.seconds(t.cpuNs),
                  Text.seconds(t.wallNs()),
                  t.avgLoad(),
                  serial.fractionText(),
                  serial.limitText()))
          .append('\n');
      members(sb, a, g);
      sb.append("CPU time at load:\n");
      Text.histogram(sb, t, false, "");
      sb.append("Real time at load:\n");
      Text.histogram(sb, t, true, "");
      int maxT = Text.maxTimeLoad(t);
      sb.append("Exact time at load (s, summed over members' run intervals):\n");
      int width = Integer.toString(Math.max(0, maxT)).length();
      for (int k = 0; k <= maxT; k++) {
        sb.append(Text.f("%" + width + "d: %.6f", k, t.timeAtLoadNs[k] / 1e9)).append('\n');
      }
      FunctionTable f = g.functions();
      sb.append(
              Text.f(
                  "Top functions: real %s s, CPU %s s within the load filter; best avg load %.2f",
                  Text.seconds(f.totalWallNs()), Text.seconds(f.totalCpuNs()), f.bestLoad()))
          .append('\n');
      sb.append(FunctionsReport.header()).append('\n');
      for (FunctionRow r : f.top(MAX_ROWS)) {
        sb.append(FunctionsReport.row(r)).append('\n');
      }
    }
    return sb.toString();
  }

  private static String count(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  private static String describe(GroupBy g) {
    return g.isNone() ? " (one group per process name across all runs)" : "";
  }

  private static void members(StringBuilder sb, Analysis a, ProcessGroup g) {
    sb.append("members:");
    int shown = 0;
    for (ProcessLoad p : g.members()) {
      if (shown == MAX_MEMBERS_SHOWN) {
        sb.append(" ... ").append(g.members().size() - shown).append(" more");
        break;
      }
      sb.append(shown == 0 ? " " : ", ")
          .append(p.runId).append('/').append(ProcessKey.pid(p.pid)).append(" (").append(Printable.escape(a.comm(p.runId, p.pid)))
          .append(')');
      shown++;
    }
    sb.append('\n');
  }
}
