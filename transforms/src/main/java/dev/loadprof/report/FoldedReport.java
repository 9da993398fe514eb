package dev.loadprof.report;

import dev.loadprof.model.Frame;
import dev.loadprof.profile.FoldedFrames;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.List;

/**
 * flame.folded: collapsed stacks for flamegraph.pl and speedscope, weighted by real time in ns:
 * {@code [run;]comm;root;...;leaf WALL_NS}. The run id leads only when there are several runs.
 * Equal lines are merged and lines sorted. The load filter applies. Kernel frames end in "_[k]",
 * as FlameGraph's stackcollapse-perf.pl marks them (--kernel), so flamegraph.pl colors them; a
 * run of "[unknown]" frames is one, "[unknown ×N]" ({@link FoldedFrames}).
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
   * A frame's segment in every folded file (flame.folded, offcpu.folded, compare's diff.folded):
   * its cleaned name, "_[k]" after a kernel frame's ({@link FoldedFrames#isKernel}).
   */
  public static String segment(String name, String dso) {
    String text = clean(name);
    return FoldedFrames.isKernel(dso) ? text + KERNEL_SUFFIX : text;
  }

  /**
   * The segments of a stack (leaf first) from root to leaf, each after a ';', as every folded
   * file writes them: runs of "[unknown]" frames one segment ({@link FoldedFrames}).
   */
  public static void appendStack(StringBuilder line, Frame[] stack) {
    for (String segment : segments(stack)) {
      line.append(';').append(segment);
    }
  }

  /** A stack's (leaf first) segments from root to leaf, as {@link #appendStack} writes them. */
  static List<String> segments(Frame[] stack) {
    List<String> out = new ArrayList<>(stack.length);
    for (int i = stack.length - 1; i >= 0; ) {
      int run = FoldedFrames.runLength(stack, i);
      out.add(segment(FoldedFrames.name(stack, i, run), stack[i].dso()));
      i -= run;
    }
    return out;
  }

  /**
   * ';' separates frames and a newline ends a line, so neither may appear inside a frame; other
   * control characters are escaped like in every text output.
   */
  public static String clean(String s) {
    return Printable.escape(s.replace(';', ':').replace('\n', ' ').replace('\r', ' '));
  }
}
