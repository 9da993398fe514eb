package dev.loadprof.report;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.profile.ProcessLoad;
import java.util.List;

/**
 * critical.folded: the critical path of each process that has one, as folded stacks weighted by
 * ns on the path: {@code [run;]comm;root;...;leaf NS} for its runs (a run's time shared among
 * its samples), and {@code [run;]comm;root;...;leaf;[blocked: REASON] NS} or {@code ...;[waiting
 * for a CPU: ...] NS} for its waits, under the stack the thread waited in. The lines of a
 * process add up to its span. Kernel frames end in "_[k]" as in flame.folded.
 */
public final class CriticalFoldedReport implements TextReport {
  public static final String FILE_NAME = "critical.folded";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public String render(Analysis a) {
    boolean withRun = a.runs().size() > 1;
    FoldedLines lines = new FoldedLines();
    for (ProcessLoad p : a.processes()) {
      CriticalPath path = a.criticalPath(p).orElse(null);
      if (path == null) {
        continue;
      }
      List<String> first = FoldedReport.first(lines, withRun, p.runId, a.comm(p.runId, p.pid));
      for (CriticalPath.StackOnPath s : path.stacks()) {
        lines.add(first, s.stack().frames(), List.of(), s.ns());
      }
      for (CriticalPath.WaitOnPath w : path.waits()) {
        lines.add(first, w.stack().frames(),
            List.of(lines.name(CriticalPath.waitLabel(w.kind(), w.reason()))), w.ns());
      }
    }
    return lines.render();
  }
}
