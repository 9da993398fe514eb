package dev.loadprof.profile;

import dev.loadprof.model.Frame;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the flame graphs (report.html's, compare.html's) and the folded files (flame.folded,
 * offcpu.folded, diff.folded) name a stack's frames. A run of consecutive unresolved frames
 * (perf's "[unknown]": a thread's start through clone3 in a binary without frame pointers is
 * ~120 of them) is one frame that says how many, "[unknown×120]": drawn frame by frame it made a
 * tower of hair-thin frames under every flame. A run does not cross from kernel to user frames,
 * so the folded files' kernel mark stays right. No space in the name: tools that split a folded
 * line at its spaces (difffolded.pl's two counts) see one frame.
 */
public final class FoldedFrames {
  public static final String UNKNOWN = "[unknown]";
  private static final ConcurrentHashMap<Integer, String> RUN_NAMES = new ConcurrentHashMap<>();

  private FoldedFrames() {}

  /**
   * The length of the run of "[unknown]" frames that starts at {@code stack[i]} and goes on
   * toward the leaf (lower indices; stacks are leaf first), all kernel or all user frames; 1 for
   * any other frame.
   */
  public static int runLength(Frame[] stack, int i) {
    if (!UNKNOWN.equals(stack[i].symbol())) {
      return 1;
    }
    boolean kernel = isKernel(stack[i].dso());
    int j = i - 1;
    while (j >= 0 && UNKNOWN.equals(stack[j].symbol()) && isKernel(stack[j].dso()) == kernel) {
      j--;
    }
    return i - j;
  }

  /**
   * The name of the frame at {@code stack[i]} covering {@code run} frames: its symbol, or
   * "[unknown×N]" for a run of N > 1 (one instance per N, so names compare by identity).
   */
  public static String name(Frame[] stack, int i, int run) {
    return run == 1 ? stack[i].symbol() : RUN_NAMES.computeIfAbsent(run, n -> "[unknown×" + n + "]");
  }

  /**
   * Whether a frame's object is the kernel, by stackcollapse-perf.pl's rule: a bracketed pseudo
   * file ("[kernel.kallsyms]", a module "[nf_conntrack]", also "[vdso]") or a vmlinux, and not
   * "[unknown]".
   */
  public static boolean isKernel(String dso) {
    return (dso.startsWith("[") || dso.endsWith("vmlinux")) && !dso.contains("unknown");
  }
}
