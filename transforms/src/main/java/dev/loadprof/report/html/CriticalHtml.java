package dev.loadprof.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.critical.CriticalPath;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The critical path of a process in report.html's data (issue 33): its figures, its segments
 * bucketed for drawing over the thread-state lanes, the flame graph of its stacks and waits, and
 * the what-if predictions; or, for a process without one, the one line that says why.
 */
public final class CriticalHtml {
  /** At most this many pieces of the path are drawn, whatever its number of segments. */
  public static final int MAX_PIECES = 2000;

  private CriticalHtml() {}

  /**
   * Puts "critical": the path's view, or null with "critical_absent": why there is none.
   *
   * @param eligible whether the analysis computes paths for this process (the subject's, or the
   *     headline without a subject)
   * @param run the process's run (for why there is no path)
   * @param threadNames the thread names by tid, for the threads' shares
   */
  public static void writeTo(ObjectNode process, CriticalPath path, boolean eligible,
      RunInfo run, Map<Integer, String> threadNames, StringTable strings) {
    if (path == null) {
      process.putNull("critical");
      process.put("critical_absent", absentWhy(eligible, run));
      return;
    }
    ObjectNode o = process.putObject("critical");
    o.put("span_start_ns", path.spanStartNs);
    o.put("span_end_ns", path.spanEndNs);
    o.put("path_ns", path.pathNs());
    o.put("oncpu_ns", path.onCpuNs());
    o.put("runnable_own_ns", path.runnableOwnNs());
    o.put("runnable_other_ns", path.runnableOtherNs());
    ObjectNode blocked = o.putObject("blocked_ns");
    path.blockedByReason().forEach(blocked::put);
    ArrayNode threads = o.putArray("threads");
    for (CriticalPath.ThreadShare t : path.threads()) {
      ObjectNode one = threads.addObject();
      one.put("tid", t.tid());
      one.put("name", threadNames.getOrDefault(t.tid(), t.name()));
      one.put("ns", t.ns());
    }
    ArrayNode kinds = o.putArray("kinds");
    for (CriticalPath.Kind k : CriticalPath.Kind.values()) {
      kinds.add(k.name().toLowerCase(java.util.Locale.ROOT));
    }
    o.put("segments", path.segments().size());
    o.put("hops", hops(path.segments()));
    long width = pieceWidth(path.spanNs());
    o.put("piece_ns", width);
    ArrayNode pieces = o.putArray("pieces");
    for (long[] p : pieces(path.segments(), path.spanStartNs, width)) {
      ArrayNode a = pieces.addArray();
      for (long v : p) {
        a.add(v);
      }
    }
    FlameTree flame = flame(path);
    if (flame.nodeCount() > 1) {
      flame.writeTo(o.putArray("flame"), strings);
    } else {
      o.putNull("flame");
    }
    ArrayNode whatIfs = o.putArray("what_if");
    for (CriticalPath.WhatIf w : path.whatIfs()) {
      ArrayNode a = whatIfs.addArray();
      a.add(strings.index(w.function()));
      a.add(w.fasterPercent());
      a.add(w.predictedWallNs());
      a.add(w.changeNs());
      a.add(w.changePercent(path.spanNs()));
    }
    // Without wake-up records no what-if is made unasked (CriticalPaths): the table's place says
    // so, not that the path has nothing to speed up.
    o.put("what_if_absent", run != null && !followsWakeUps(run)
        ? "No what-ifs: without wake-up records a what-if cannot tell which waits a speed-up"
            + " would shorten (see the notes below)."
        : "No function with at least 1 % of the path to speed up.");
    o.put("model", CriticalPath.MODEL_LIMITS);
    ArrayNode notes = o.putArray("notes");
    if (run != null && !followsWakeUps(run)) {
      notes.add("Run " + run.runId + " has no sched:sched_wakeup records: no wait on this path"
          + " is followed to the thread that ended it (each stays on the waiting thread as"
          + " blocked), so it is not the critical path through wake-ups; compare does not use"
          + " it. Record system-wide as root (loadprof record) for wake-ups.");
    }
    path.notes().forEach(notes::add);
  }

  /**
   * Whether a run's paths follow waits to their wakers: it has sched_wakeup records. Without
   * them (per-process recordings, traces recorded without sched_wakeup) every wait on a path
   * stays on the waiting thread, so compare does not take such a path as the critical path.
   */
  public static boolean followsWakeUps(RunInfo run) {
    return run != null && run.health.get(TraceHealth.WAKEUP_RECORDS) > 0;
  }

  /** The one line of a report whose process has no critical path. */
  static String absentWhy(boolean eligible, RunInfo run) {
    if (!eligible) {
      return "The critical path is computed for the subject (the program perf started) only.";
    }
    if (run != null && run.health.get(TraceHealth.WAKEUP_RECORDS) == 0) {
      return "No critical path: run " + run.runId + " has no sched:sched_wakeup records, so no"
          + " wait can be followed to the thread that ended it (a per-process recording, or perf"
          + " record without -e sched:sched_wakeup; record system-wide as root).";
    }
    return "No critical path for this process: its threads' run intervals and wake-ups give"
        + " none (see summary.json).";
  }

  /** How many times the path moves from one thread to another: the wake-up hops. */
  static int hops(List<PathSegment> segments) {
    int n = 0;
    for (int i = 1; i < segments.size(); i++) {
      if (segments.get(i).tid() != segments.get(i - 1).tid()) {
        n++;
      }
    }
    return n;
  }

  /** The smallest of 1, 2, 5 x 10^k ns that cuts the span into at most MAX_PIECES slots. */
  static long pieceWidth(long spanNs) {
    long need = Math.max(1, (Math.max(1, spanNs) - 1) / MAX_PIECES + 1);
    for (long scale = 1; scale <= Long.MAX_VALUE / 50; scale *= 10) {
      for (long m : new long[] {1, 2, 5}) {
        if (m * scale >= need) {
          return m * scale;
        }
      }
    }
    return need;
  }

  /**
   * The path as at most about MAX_PIECES pieces [tid, start ns, end ns, kind ordinal]: the span
   * cut into slots of {@code width}; in each slot the thread that held most of the path, with
   * its kind that held most; neighbouring slots alike are one piece. A path of few segments
   * keeps them as they are (each slot's thread is then exact where a segment is wider than it).
   */
  static List<long[]> pieces(List<PathSegment> segments, long start, long width) {
    List<long[]> out = new ArrayList<>();
    Map<Long, Long> slot = new HashMap<>(); // (tid, kind) -> ns in the current slot
    long current = Long.MIN_VALUE;
    for (PathSegment s : segments) {
      long a = s.startNs();
      while (a < s.endNs()) {
        long k = Math.floorDiv(a - start, width);
        long slotEnd = start + (k + 1) * width;
        long b = Math.min(s.endNs(), slotEnd);
        if (k != current) {
          flush(out, slot, start, current, width);
          current = k;
        }
        slot.merge(((long) s.tid() << 8) | s.kind().ordinal(), b - a, Long::sum);
        a = b;
      }
    }
    flush(out, slot, start, current, width);
    if (!out.isEmpty()) { // the slots' ends, clipped to the path's
      out.get(0)[1] = Math.max(out.get(0)[1], segments.get(0).startNs());
      long[] last = out.get(out.size() - 1);
      last[2] = Math.min(last[2], segments.get(segments.size() - 1).endNs());
    }
    return out;
  }

  private static void flush(List<long[]> out, Map<Long, Long> slot, long start, long k,
      long width) {
    if (slot.isEmpty()) {
      return;
    }
    Map<Integer, Long> byTid = new HashMap<>();
    slot.forEach((key, ns) -> byTid.merge((int) (key >> 8), ns, Long::sum));
    int tid = 0;
    long most = -1;
    for (Map.Entry<Integer, Long> e : byTid.entrySet()) {
      if (e.getValue() > most || e.getValue() == most && e.getKey() < tid) {
        tid = e.getKey();
        most = e.getValue();
      }
    }
    int kind = 0;
    most = -1;
    for (Map.Entry<Long, Long> e : slot.entrySet()) {
      if ((int) (e.getKey() >> 8) == tid && e.getValue() > most) {
        kind = (int) (e.getKey() & 0xff);
        most = e.getValue();
      }
    }
    slot.clear();
    long from = start + k * width;
    long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
    if (last != null && last[0] == tid && last[3] == kind && last[2] == from) {
      last[2] = from + width;
    } else {
      out.add(new long[] {tid, from, from + width, kind});
    }
  }

  /**
   * The path's flame graph: its on-CPU stacks (real column and CPU column their ns on the path)
   * and its waits under a first frame that names them (real column only), small frames merged.
   */
  static FlameTree flame(CriticalPath path) {
    FlameTree tree = FlameTree.empty("all", 1);
    for (CriticalPath.StackOnPath s : path.stacks()) {
      if (s.ns() > 0) {
        tree.add(0, null, s.stack().frames(), s.ns(), s.ns());
      }
    }
    for (CriticalPath.WaitOnPath w : path.waits()) {
      if (w.ns() > 0) {
        Frame[] stack = w.stack() == null ? new Frame[0] : w.stack().frames();
        tree.add(0, waitName(w.kind(), w.reason()), stack, w.ns(), 0);
      }
    }
    tree.mergeSmall();
    return tree;
  }

  /** How the names of waits for a CPU start: scheduling, not code. */
  public static final String CPU_WAIT = "[waiting for a CPU: ";

  /**
   * A wait on the path as a frame name: "[blocked: timer]", "[waiting for a CPU: own threads]",
   * "[waiting for a CPU: process X]" (compare's figures use the same names).
   */
  public static String waitName(CriticalPath.Kind kind, String reason) {
    return switch (kind) {
      case BLOCKED -> "[blocked: " + (reason.isEmpty() ? "unknown" : reason) + "]";
      case RUNNABLE_OWN -> CPU_WAIT + "own threads]";
      case RUNNABLE_OTHER -> CPU_WAIT + (reason.isEmpty() ? "another process" : reason) + "]";
      case RUNNING -> "[running]";
    };
  }
}
