package dev.loadprof.critical;

import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.ThreadState;
import dev.loadprof.wall.ThreadMarks;
import dev.loadprof.wall.ThreadStates;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Computes a process's {@link CriticalPath} from its replayed threads: the execution graph, the
 * walk back from the last node, the critical profile (the samples of the thread on the path at
 * each instant, a run's time shared among its samples) and the what-ifs.
 */
public final class CriticalPaths {
  /** How many functions get the 10/25/50 % what-ifs without being asked for. */
  static final int WHAT_IF_FUNCTIONS = 5;
  static final int[] WHAT_IF_PERCENTS = {10, 25, 50};
  private static final int TOP_FUNCTIONS = 20;

  private CriticalPaths() {}

  /**
   * What the path is computed from.
   *
   * @param pid the process (key)
   * @param comm its name
   * @param processName the name of any process of the run (key)
   * @param threadForks tid to {fork ns, creator tid} (RunInfo.threadForks)
   * @param hasWakers whether the run recorded wake-ups (system-wide with sched_wakeup)
   * @param whatIfs the --what-if requests
   * @param notes what the caller says about the path (e.g. why this process was chosen)
   */
  public record Input(ThreadStates.Replayed replayed, long spanStartNs, long spanEndNs, int pid,
      String comm, IntFunction<String> processName, Map<Integer, long[]> threadForks,
      boolean hasWakers, List<WhatIfRequest> whatIfs, List<String> notes) {}

  /** The path, or null when the process has no span or no thread. */
  public static CriticalPath compute(Input in) {
    if (in.spanEndNs() <= in.spanStartNs() || in.replayed().pieceCount() == 0) {
      return null;
    }
    ExecutionGraph g = ExecutionGraph.build(in.replayed(), in.spanStartNs(), in.spanEndNs(),
        new ExecutionGraph.Context(in.pid(), in.processName(), in.threadForks(),
            in.hasWakers()));
    if (g.count == 0) {
      return null;
    }
    long[] d = LongestPath.distances(g);
    int end = LongestPath.end(g, d);
    long span = d[end];
    List<int[]> steps = LongestPath.walk(g, d, end);
    PathSamples samples = new PathSamples(g);
    PathProfile profile = new PathProfile(g, samples);
    List<PathSegment> segments = new ArrayList<>();
    Map<String, Long> blocked = new HashMap<>();
    long onCpu = 0;
    long own = 0;
    long other = 0;
    Map<Integer, Long> byThread = new HashMap<>();
    for (int[] step : steps) {
      int i = step[0];
      int tid = g.threadTid[g.thread[i]];
      long from = step[1] == 0 ? g.time[i - 1] : step[1] == 1 ? g.time[g.cross[i]]
          : g.spanStartNs;
      long ns = g.time[i] - from;
      if (ns <= 0) {
        continue;
      }
      Kind kind;
      String reason = "";
      int piece = step[1] == 0 ? g.piece[i] : -1;
      if (step[1] == 0 && g.predKind[i] == ExecutionGraph.RUN) {
        kind = Kind.RUNNING;
        profile.addRun(i, tid);
        onCpu += ns;
      } else if (step[1] == 1 && g.predKind[i] == ExecutionGraph.FIRST) {
        kind = Kind.RUNNABLE_OWN; // from its creator's fork to its first run
        own += ns;
      } else if (step[1] == 1) {
        kind = Kind.BLOCKED; // from its waker to the wake-up queued on its CPU
        reason = "wake-up latency";
        blocked.merge(reason, ns, Long::sum);
      } else if (piece >= 0 && g.replayed.pieceState(piece) == ThreadState.RUNNABLE) {
        ThreadMarks m = g.marks;
        int run = g.replayed.pieceRun(piece);
        if (run >= 0 && m.otherNs[run] > m.ownNs[run]) {
          kind = Kind.RUNNABLE_OTHER;
          reason = ExecutionGraph.known(m.otherPid[run])
              ? "process " + in.processName().apply(m.otherPid[run]) : "";
          other += ns;
        } else {
          kind = Kind.RUNNABLE_OWN;
          own += ns;
        }
      } else {
        kind = Kind.BLOCKED;
        reason = g.reason[i] == null ? "unknown" : g.reason[i];
        blocked.merge(reason, ns, Long::sum);
      }
      if (kind != Kind.RUNNING) {
        int stack = piece >= 0 ? g.replayed.pieceStack(piece) : -1;
        profile.addWait(tid, kind, reason, stack < 0 ? null : g.marks.stacks.get(stack), ns);
      }
      byThread.merge(tid, ns, Long::sum);
      add(segments, new PathSegment(tid, from, g.time[i], kind, reason));
    }
    List<String> notes = new ArrayList<>(in.notes());
    notes.addAll(g.notes);
    if (samples.unplaced > 0) {
      notes.add(samples.unplaced + " samples fell outside their thread's runs and are not in"
          + " the critical profile");
    }
    // Without wake-up records every blocked wait is a fixed edge: a what-if cannot tell which
    // waits a speed-up would shorten (a per-process recording of mixed, 50 iterations of a 2 ms
    // serial section, printed "serial_section 50 % faster: -0.3 ms", where the change removes
    // 50 ms of the main thread's work that the workers wait for), nor which it would not. No
    // unasked what-ifs then; an asked one is computed and flagged.
    List<CriticalPath.WhatIf> whatIfs = whatIfs(g, samples, profile, span, in.whatIfs(),
        in.hasWakers());
    if (!in.hasWakers()) {
      notes.add(in.whatIfs().isEmpty()
          ? "no what-ifs: without wake-up records a what-if cannot tell which waits a speed-up"
              + " would shorten (record system-wide, as root, for them; --what-if computes one"
              + " all the same, every wait kept as long as it was)"
          : "the what-ifs keep every wait as long as it was (no wake-up records): they cannot"
              + " tell which waits a speed-up would shorten, so they may be far off either way"
              + " (record system-wide, as root)");
    }
    return new CriticalPath(g.spanStartNs, g.spanStartNs + span, segments,
        profile.topFunctions(TOP_FUNCTIONS, span), threads(byThread, in), sorted(blocked),
        onCpu, own, other, whatIfs, profile.folded(), profile.stacks(), profile.waits(), notes);
  }

  /** Appends s, merged into the last segment when it goes on from it alike. */
  private static void add(List<PathSegment> segments, PathSegment s) {
    if (!segments.isEmpty()) {
      PathSegment last = segments.get(segments.size() - 1);
      if (last.tid() == s.tid() && last.kind() == s.kind() && last.reason().equals(s.reason())
          && last.endNs() == s.startNs()) {
        segments.set(segments.size() - 1,
            new PathSegment(s.tid(), last.startNs(), s.endNs(), s.kind(), s.reason()));
        return;
      }
    }
    segments.add(s);
  }

  private static List<CriticalPath.WhatIf> whatIfs(ExecutionGraph g, PathSamples samples,
      PathProfile profile, long span, List<WhatIfRequest> requests, boolean unasked) {
    List<CriticalPath.WhatIf> out = new ArrayList<>();
    for (String f : unasked ? profile.whatIfCandidates(WHAT_IF_FUNCTIONS, span)
        : List.<String>of()) {
      long[] predicted = LongestPath.spans(g, samples.shareOf(f::equals), WHAT_IF_PERCENTS);
      for (int q = 0; q < WHAT_IF_PERCENTS.length; q++) {
        out.add(new CriticalPath.WhatIf(f, WHAT_IF_PERCENTS[q], predicted[q],
            predicted[q] - span));
      }
    }
    for (WhatIfRequest r : requests) {
      long predicted = LongestPath.spans(g, samples.shareOf(r.matcher()),
          new int[] {r.fasterPercent()})[0];
      out.add(new CriticalPath.WhatIf(r.regex(), r.fasterPercent(), predicted,
          predicted - span));
    }
    return out;
  }

  private static List<CriticalPath.ThreadShare> threads(Map<Integer, Long> byThread, Input in) {
    List<CriticalPath.ThreadShare> out = new ArrayList<>();
    int main = ExecutionGraph.mainTid(in.pid());
    byThread.forEach((tid, ns) -> out.add(new CriticalPath.ThreadShare(tid,
        tid == main ? in.comm() + " (main)" : in.comm(), ns)));
    out.sort(Comparator.comparingLong((CriticalPath.ThreadShare t) -> -t.ns())
        .thenComparingInt(CriticalPath.ThreadShare::tid));
    return out;
  }

  /** Most first, then by name. */
  static Map<String, Long> sorted(Map<String, Long> m) {
    List<Map.Entry<String, Long>> e = new ArrayList<>(m.entrySet());
    e.sort(Map.Entry.<String, Long>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey()));
    Map<String, Long> out = new LinkedHashMap<>();
    e.forEach(x -> out.put(x.getKey(), x.getValue()));
    return out;
  }

  static CallStack none() {
    return new CallStack(new dev.loadprof.model.Frame[0]);
  }
}
