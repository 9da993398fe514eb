package dev.loadprof.report;

import dev.loadprof.model.Frame;
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
        StringBuilder key = new StringBuilder();
        if (withRun) {
          key.append(FoldedReport.clean(p.runId)).append(';');
        }
        key.append(FoldedReport.clean(a.comm(p.runId, p.pid)));
        Frame[] stack = e.getKey().stack().frames();
        for (int i = stack.length - 1; i >= 0; i--) { // root first
          key.append(';').append(FoldedReport.clean(stack[i].symbol()));
          if (FoldedReport.isKernel(stack[i].dso())) {
            key.append(FoldedReport.KERNEL_SUFFIX);
          }
        }
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
