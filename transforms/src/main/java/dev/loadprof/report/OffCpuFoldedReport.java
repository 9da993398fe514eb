package dev.loadprof.report;

import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.Map;
import java.util.TreeMap;

/**
 * offcpu.folded: where the processes' threads waited, as folded stacks weighted by off-CPU
 * thread time in ns: {@code [run;]comm;root;...;leaf;STATE NS}, the state (sleeping, disk,
 * runnable, other, unknown) as the leaf frame. Narrowed like the profile (--tid, -C, --time,
 * --load). Kernel frames end in "_[k]" as in flame.folded.
 */
public final class OffCpuFoldedReport implements TextReport {
  public static final String FILE_NAME = "offcpu.folded";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public String render(Analysis a) {
    boolean withRun = a.runs().size() > 1;
    TreeMap<String, Long> lines = new TreeMap<>();
    for (ProcessLoad p : a.processes()) {
      if (p.threadStates == null) {
        continue;
      }
      for (Map.Entry<ThreadStateSummary.Wait, Double> e : p.threadStates.waits.entrySet()) {
        StringBuilder key = FoldedReport.key(withRun, p.runId, a.comm(p.runId, p.pid),
            e.getKey().stack().frames());
        key.append(';').append(e.getKey().state().label);
        lines.merge(key.toString(), Math.round(e.getValue()), Long::sum);
      }
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : lines.entrySet()) {
      long ns = e.getValue();
      if (ns > 0) {
        sb.append(e.getKey()).append(' ').append(ns).append('\n');
      }
    }
    return sb.toString();
  }
}
