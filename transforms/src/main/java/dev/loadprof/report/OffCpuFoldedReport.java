package dev.loadprof.report;

import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.List;
import java.util.Map;

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
    FoldedLines lines = new FoldedLines();
    for (ProcessLoad p : a.processes()) {
      if (p.threadStates == null) {
        continue;
      }
      List<String> first = FoldedReport.first(lines, withRun, p.runId, a.comm(p.runId, p.pid));
      for (Map.Entry<ThreadStateSummary.Wait, Double> e : p.threadStates.waits.entrySet()) {
        lines.add(first, e.getKey().stack().frames(), List.of(lines.name(e.getKey().state().label)),
            Math.round(e.getValue()));
      }
    }
    return lines.render();
  }
}
