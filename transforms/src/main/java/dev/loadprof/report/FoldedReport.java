package dev.loadprof.report;

import dev.loadprof.profile.StackWeight;
import java.util.List;

/**
 * flame.folded: collapsed stacks for flamegraph.pl and speedscope, weighted by real time in ns:
 * {@code [run;]comm;root;...;leaf WALL_NS}. The run id leads only when there are several runs.
 * Equal lines are merged and lines sorted. The load filter applies. Kernel frames end in "_[k]",
 * as FlameGraph's stackcollapse-perf.pl marks them (--kernel), so flamegraph.pl colors them.
 */
public final class FoldedReport implements TextReport {
  public static final String FILE_NAME = "flame.folded";
  static final String KERNEL_SUFFIX = "_[k]";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  /** {@code [run;]comm}: the segments a line starts with; shared with offcpu.folded. */
  static List<String> first(FoldedLines lines, boolean withRun, String runId, String comm) {
    return withRun ? List.of(lines.name(runId), lines.name(comm)) : List.of(lines.name(comm));
  }

  @Override
  public String render(Analysis a) {
    boolean withRun = a.runs().size() > 1;
    FoldedLines lines = new FoldedLines();
    for (StackWeight s : a.filteredStacks()) {
      lines.add(first(lines, withRun, s.runId(), a.comm(s.runId(), s.pid())), s.stack(),
          List.of(), s.wallNs());
    }
    return lines.render();
  }

  /**
   * stackcollapse-perf.pl's rule: the object is a bracketed pseudo file ("[kernel.kallsyms]",
   * a module "[nf_conntrack]", also "[vdso]") or a vmlinux, and not "[unknown]".
   */
  static boolean isKernel(String dso) {
    return (dso.startsWith("[") || dso.endsWith("vmlinux")) && !dso.contains("unknown");
  }

  /**
   * ';' separates frames and a newline ends a line, so neither may appear inside a frame; other
   * control characters are escaped like in every text output.
   */
  static String clean(String s) {
    return Printable.escape(s.replace(';', ':').replace('\n', ' ').replace('\r', ' '));
  }
}
