package dev.loadprof.report;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.ThreadState;
import dev.loadprof.profile.FoldedFrames;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.wall.StateTimeline;
import dev.loadprof.wall.ThreadStateSummary;
import dev.loadprof.wall.ThreadStates;
import dev.loadprof.wall.WaitFilter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole-wall view of the processes in an analysis: their thread states, narrowed as the
 * profile is (--tid, -C, --time, --load), the wall line and top waits of the text summaries, and
 * the warnings that say, once per run, what the trace lacks for it.
 */
public final class WallView {
  private WallView() {}

  /**
   * The process's thread states, from its replay (which the state timeline shares), narrowed by
   * {@code filter}; {@code cpus} is the machine's CPUs for a system-wide run, else 0: who held
   * the free CPUs is known only system-wide, where every CPU's switches are seen.
   */
  static ThreadStateSummary states(ProcessAccumulator acc, ThreadStates.Replayed replayed,
      WaitFilter filter, int cpus) {
    return ThreadStates.compute(replayed, acc.spanStartNs, acc.spanEndNs, filter, cpus);
  }

  /** Says once per run which parts of the off-CPU view its trace cannot give. */
  static void warn(List<RunInfo> runs, List<ProcessLoad> processes) {
    for (RunInfo r : runs) {
      boolean waited = false;
      boolean states = false;
      boolean stacks = false;
      for (ProcessLoad p : processes) {
        if (p.runId.equals(r.runId) && p.threadStates != null) {
          waited |= offCpuNs(p.threadStates) > 0;
          states |= p.threadStates.hasStates;
          stacks |= p.threadStates.hasStacks;
        }
      }
      // A process that never left a CPU has no waits to describe: nothing is missing then.
      if (!waited) {
        continue;
      }
      if (!"cpu".equals(r.lanes)) {
        r.warnings.add(r.source + ": " + RunInfo.PER_PROCESS_LIMIT + "its switch records say only"
            + " whether a thread was preempted (runnable); other waits are 'unknown', and who"
            + " held the CPU meanwhile is not known (record system-wide with sched_switch for"
            + " sleeping, disk and interference)");
      } else if (!states) {
        r.warnings.add(r.source + ": the switch records carry no thread states (prev_state),"
            + " or the run was archived before loadprof kept them: waits are 'unknown'"
            + " (record sched:sched_switch with perf script's 'trace' field)");
      }
      if (!stacks && !"cpu".equals(r.lanes)) { // perf gives switch-out stacks only to root
        r.warnings.add(r.source + ": " + RunInfo.PER_PROCESS_LIMIT + "no switch-out call chains:"
            + " the off-CPU profile (offcpu.pb.gz, offcpu.folded) shows states without stacks");
      } else if (!stacks) {
        r.warnings.add(r.source + ": no switch-out call chains (record with -g): the off-CPU"
            + " profile (offcpu.pb.gz, offcpu.folded) shows states without stacks");
      }
    }
  }

  /** The thread-ns that the process's threads spent off CPU, in any state. */
  private static double offCpuNs(ThreadStateSummary s) {
    double off = 0;
    for (ThreadState st : ThreadState.values()) {
      if (st != ThreadState.RUNNING) {
        off += s.byState(st);
      }
    }
    return off;
  }

  /** "wall 1.850 s = on CPU 1.222 s + waiting 0.628 s: sleeping 0.40 s, disk 0.20 s", or null. */
  static String wallLine(ProcessLoad p) {
    ThreadStateSummary s = p.threadStates;
    if (s == null) {
      return null;
    }
    StringBuilder line = new StringBuilder(Text.f("wall %.3f s = on CPU %.3f s + waiting %.3f s",
        s.spanNs / 1e9, s.onCpuRealNs / 1e9, s.load0Ns / 1e9));
    double[] byState = s.load0ByState();
    List<ThreadState> order = new ArrayList<>(List.of(ThreadState.values()));
    order.sort(Comparator.comparingDouble((ThreadState st) -> -byState[st.ordinal()]));
    String sep = ": ";
    for (ThreadState st : order) {
      if (byState[st.ordinal()] >= 5e6) {
        line.append(sep).append(st.label).append(Text.f(" %.2f s", byState[st.ordinal()] / 1e9));
        sep = ", ";
      }
    }
    return line.toString();
  }

  /**
   * The waits that took the most load-0 time (at least half a millisecond), most first, by state
   * and where the threads waited: "   0.400 s  sleeping  doze".
   */
  static List<String> topWaits(ProcessLoad p, int limit) {
    List<String> out = new ArrayList<>();
    if (p.threadStates == null) {
      return out;
    }
    Map<String, Double> byWhere = new TreeMap<>();
    p.threadStates.load0ByCause.forEach((cause, ns) -> byWhere.merge(Text.f("%-9s %s",
        cause.state().label, Printable.escape(where(cause.stack().frames()))), ns, Double::sum));
    List<Map.Entry<String, Double>> rows = new ArrayList<>(byWhere.entrySet());
    rows.sort(Comparator.comparingDouble((Map.Entry<String, Double> e) -> -e.getValue())
        .thenComparing(Map.Entry::getKey));
    for (Map.Entry<String, Double> e : rows) {
      if (out.size() == limit || e.getValue() < 5e5) {
        break;
      }
      out.add(Text.f("%8.3f s  %s", e.getValue() / 1e9, e.getKey()));
    }
    return out;
  }

  /**
   * report.html's name of each thread lane: the main thread by its process's name, the others by
   * tid (perf's per-thread names are not kept past the reader), each with its top function: the
   * leaf of its most real time on CPU, else where it waited longest ("tid 10525 · worker_loop").
   */
  static Map<Integer, String> laneNames(Analysis a, ProcessLoad p) {
    Map<Integer, Map<String, Long>> onCpu = new TreeMap<>();
    for (StackWeight s : a.threadStacks()) {
      if (s.pid() == p.pid && s.runId().equals(p.runId) && s.stack().length > 0) {
        onCpu.computeIfAbsent(s.tid(), t -> new TreeMap<>())
            .merge(s.stack()[0].symbol(), s.wallNs(), Long::sum);
      }
    }
    Map<Integer, Map<String, Double>> waited = new TreeMap<>();
    if (p.threadStates != null) {
      p.threadStates.waits.forEach((w, ns) -> waited.computeIfAbsent(w.tid(),
          t -> new TreeMap<>()).merge(where(w.stack().frames()), ns, Double::sum));
    }
    Map<Integer, String> names = new TreeMap<>();
    for (int tid : p.stateTimeline == null ? List.<Integer>of()
        : p.stateTimeline.lanes.stream().map(StateTimeline.Lane::tid).toList()) {
      String thread = tid == ProcessKey.pid(p.pid)
          ? Printable.escape(a.comm(p.runId, p.pid)) + " (main)" : "tid " + tid;
      String top = onCpu.containsKey(tid) ? top(onCpu.get(tid))
          : waited.containsKey(tid) ? top(waited.get(tid)) : null;
      names.put(tid, top == null ? thread : thread + " · " + Printable.escape(top));
    }
    return names;
  }

  /** The key of the largest value, the first by name of equals. */
  private static <N extends Number> String top(Map<String, N> byName) {
    String best = null;
    for (Map.Entry<String, N> e : byName.entrySet()) {
      if (best == null || e.getValue().doubleValue() > byName.get(best).doubleValue()) {
        best = e.getKey();
      }
    }
    return best;
  }

  /**
   * Where a thread waits: its innermost frame in the program (outside the kernel and the C
   * library, which only pass the wait on), else outside the kernel, else the leaf.
   */
  static String where(Frame[] stack) {
    if (stack.length == 0) {
      return "(no stack)";
    }
    Frame outsideKernel = null;
    for (Frame f : stack) {
      if (FoldedFrames.isKernel(f.dso()) || f.symbol().equals("[unknown]")) {
        continue;
      }
      if (!isSystemLibrary(f.dso())) {
        return f.symbol();
      }
      outsideKernel = outsideKernel == null ? f : outsideKernel;
    }
    return outsideKernel != null ? outsideKernel.symbol() : stack[0].symbol();
  }

  private static boolean isSystemLibrary(String dso) {
    String name = dso.substring(dso.lastIndexOf('/') + 1);
    return name.startsWith("libc.") || name.startsWith("libc-") || name.startsWith("libpthread")
        || name.startsWith("ld-linux") || name.startsWith("libstdc++");
  }
}
