package dev.loadprof.report;

import dev.loadprof.model.Frame;
import dev.loadprof.profile.StackWeight;
import java.util.Map;
import java.util.TreeMap;

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

  /** {@code [run;]comm;root;...;leaf}, kernel frames marked; shared with offcpu.folded. */
  static StringBuilder key(boolean withRun, String runId, String comm, Frame[] stack) {
    StringBuilder key = new StringBuilder();
    if (withRun) {
      key.append(clean(runId)).append(';');
    }
    key.append(clean(comm));
    for (int i = stack.length - 1; i >= 0; i--) { // root first
      key.append(';').append(clean(stack[i].symbol()));
      if (isKernel(stack[i].dso())) {
        key.append(KERNEL_SUFFIX);
      }
    }
    return key;
  }

  @Override
  public String render(Analysis a) {
    boolean withRun = a.runs().size() > 1;
    TreeMap<String, Long> lines = new TreeMap<>();
    for (StackWeight s : a.filteredStacks()) {
      StringBuilder key = key(withRun, s.runId(), a.comm(s.runId(), s.pid()), s.stack());
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
