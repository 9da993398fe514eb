package dev.loadprof.report;

import dev.loadprof.model.Frame;
import dev.loadprof.profile.StackWeight;
import java.util.Map;
import java.util.TreeMap;

/**
 * flame.folded: collapsed stacks for flamegraph.pl and speedscope, weighted by real time in ns:
 * {@code [run;]comm;root;...;leaf WALL_NS}. The run id leads only when there are several runs.
 * Equal lines are merged and lines sorted. The load filter applies.
 */
public final class FoldedReport implements TextReport {
  public static final String FILE_NAME = "flame.folded";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public String render(Analysis a) {
    boolean withRun = a.runs().size() > 1;
    TreeMap<String, Long> lines = new TreeMap<>();
    for (StackWeight s : a.filteredStacks()) {
      StringBuilder key = new StringBuilder();
      if (withRun) {
        key.append(clean(s.runId())).append(';');
      }
      key.append(clean(a.comm(s.runId(), s.pid())));
      Frame[] stack = s.stack();
      for (int i = stack.length - 1; i >= 0; i--) { // root first
        key.append(';').append(clean(stack[i].symbol()));
      }
      lines.merge(key.toString(), s.wallNs(), Long::sum);
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : lines.entrySet()) {
      if (e.getValue() > 0) {
        sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
      }
    }
    return sb.toString();
  }

  /**
   * ';' separates frames and a newline ends a line, so neither may appear inside a frame; other
   * control characters are escaped like in every text output.
   */
  private static String clean(String s) {
    return Printable.escape(s.replace(';', ':').replace('\n', ' ').replace('\r', ' '));
  }
}
