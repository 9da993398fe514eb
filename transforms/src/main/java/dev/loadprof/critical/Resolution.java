package dev.loadprof.critical;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.ThreadState;
import dev.loadprof.wall.ThreadMarks;
import dev.loadprof.wall.ThreadStates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How each blocked wait of a process's threads ended, and where each thread came from: a wake-up
 * by a running thread of the process (an edge from the waker at that instant), or a reason that
 * ends the walk there (timer, io, interrupt, another process by name, unknown); a thread's
 * creator at its fork (PERF_RECORD_FORK), else the main thread if it was running when the thread
 * first appeared (a guess, counted), else the span's start.
 */
final class Resolution {
  private final ThreadStates.Replayed r;
  private final ThreadMarks m;
  private final List<int[]> ranges;
  private final Map<Integer, Integer> threadOf;
  private final long spanStartNs;
  private final long spanEndNs;
  private final ExecutionGraph.Context cx;
  private final WakeIndex wakes;

  /** Blocked piece to {waker thread, instant}. */
  private final Map<Integer, long[]> crossOfPiece = new HashMap<>();
  private final Map<Integer, String> reasonOfPiece = new HashMap<>();
  /** Per thread: {source thread or -1, instant of the source, or 0}. */
  private long[][] starts;
  private long wakesNotFollowed;
  private long creatorsGuessed;
  private long creatorsUnknown;
  private long queuedWakers;
  private long waitsWithoutWake;
  /** How long before a wake-up queued to an idle CPU its waker may have stopped running. */
  static final long QUEUED_WAKE_NS = 200_000;
  /** The same for a wait whose wake-up was not recorded: its run's start is a guess. */
  static final long LOST_WAKE_NS = 1_000_000;
  private long wakesGuessed;

  Resolution(ThreadStates.Replayed r, List<int[]> ranges, Map<Integer, Integer> threadOf,
      long spanStartNs, long spanEndNs, ExecutionGraph.Context cx, WakeIndex wakes) {
    this.r = r;
    this.m = r.marks();
    this.ranges = ranges;
    this.threadOf = threadOf;
    this.spanStartNs = spanStartNs;
    this.spanEndNs = spanEndNs;
    this.cx = cx;
    this.wakes = wakes;
  }

  /** Decides every wait and start; the instants inside runs that become nodes go to splits. */
  void resolve(List<long[]> splits) {
    starts = new long[ranges.size()][];
    for (int k = 0; k < ranges.size(); k++) {
      int[] range = ranges.get(k);
      int tid = r.pieceTid(range[0]);
      long t0 = Long.MIN_VALUE;
      for (int p = range[0]; p < range[1]; p++) {
        if (r.pieceEndNs(p) <= spanStartNs || r.pieceStartNs(p) >= spanEndNs) {
          continue;
        }
        if (t0 == Long.MIN_VALUE) {
          t0 = Math.max(spanStartNs, r.pieceStartNs(p));
        }
        ThreadState st = r.pieceState(p);
        if (st != ThreadState.RUNNING && st != ThreadState.RUNNABLE) {
          resolveWait(p, tid, st, splits);
        }
      }
      starts[k] = t0 == Long.MIN_VALUE ? null : resolveStart(k, tid, t0, splits);
    }
  }

  private void resolveWait(int p, int tid, ThreadState st, List<long[]> splits) {
    long e = r.pieceEndNs(p);
    if (e > spanEndNs) {
      reasonOfPiece.put(p, "until the end");
      return;
    }
    CallStack where = r.pieceStack(p) < 0 ? null : m.stacks.get(r.pieceStack(p));
    if (ExecutionGraph.sleepsOnTimer(where)) {
      reasonOfPiece.put(p, "timer");
      return;
    }
    int w = wakes.at(tid, e);
    if (w < 0) {
      // A wait whose wake-up was not recorded (perf keeps nothing of an idle CPU's wake-up at
      // times: its run then starts at a guess, before its first sample) is taken as woken by
      // the process's thread that ran last before it, as a wake-up queued to an idle CPU.
      if (cx.hasWakers() && st != ThreadState.DISK
          && queuedWaker(p, tid, e, LOST_WAKE_NS, splits)) {
        wakesGuessed++;
        return;
      }
      waitsWithoutWake++;
      reasonOfPiece.put(p, !cx.hasWakers() ? "unknown (no wake-ups recorded)"
          : st == ThreadState.DISK ? "io" : "unknown");
      return;
    }
    int wakerPid = m.wakerPid(w);
    int wakerTid = m.wakerTid(w);
    if (wakerPid == cx.pid() && ExecutionGraph.known(wakerTid) && wakerTid != tid) {
      Integer kw = threadOf.get(wakerTid);
      if (kw != null && runningAt(kw, e)) {
        crossOfPiece.put(p, new long[] {kw, e});
        splits.add(new long[] {kw, e});
        return;
      }
      wakesNotFollowed++;
      reasonOfPiece.put(p, "unknown");
    } else if (wakerTid == 0 || wakerPid == 0) {
      if (st != ThreadState.DISK && queuedWaker(p, tid, e, QUEUED_WAKE_NS, splits)) {
        queuedWakers++;
        return;
      }
      reasonOfPiece.put(p, st == ThreadState.DISK ? "io" : "interrupt");
    } else if (wakerPid == cx.pid()) {
      reasonOfPiece.put(p, st == ThreadState.DISK ? "io" : "unknown");
    } else if (ExecutionGraph.known(wakerPid)) {
      reasonOfPiece.put(p, "process " + cx.processName().apply(wakerPid));
    } else {
      reasonOfPiece.put(p, "unknown");
    }
  }

  /**
   * A sched_wakeup in the idle task of the wakee's CPU is mostly a wake-up another CPU queued
   * there (the waker's own record is sched_waking): the waker is taken to be the process's
   * thread that was running at the wake-up, or stopped running last within {@link
   * #QUEUED_WAKE_NS} before it; the edge from it weighs the time between.
   */
  private boolean queuedWaker(int p, int tid, long e, long window, List<long[]> splits) {
    int best = -1;
    long bestAt = Long.MIN_VALUE;
    for (int k = 0; k < ranges.size(); k++) {
      int[] range = ranges.get(k);
      if (r.pieceTid(range[0]) == tid) {
        continue;
      }
      long at = lastRunBefore(k, e, window);
      if (at != Long.MIN_VALUE && at > bestAt) {
        best = k;
        bestAt = at;
      }
    }
    if (best < 0 || bestAt < spanStartNs) {
      return false;
    }
    crossOfPiece.put(p, new long[] {best, bestAt});
    splits.add(new long[] {best, bestAt});
    return true;
  }

  /** The latest instant in [t - window, t] at which thread k ran, or MIN_VALUE. */
  private long lastRunBefore(int k, long t, long window) {
    int[] range = ranges.get(k);
    int lo = range[0];
    int hi = range[1];
    while (lo < hi) { // the first piece starting at or after t
      int mid = (lo + hi) >>> 1;
      if (r.pieceStartNs(mid) < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (int q = lo - 1; q >= range[0] && r.pieceEndNs(q) >= t - window; q--) {
      if (r.pieceState(q) == ThreadState.RUNNING) {
        return Math.min(t, r.pieceEndNs(q));
      }
    }
    return Long.MIN_VALUE;
  }

  private long[] resolveStart(int k, int tid, long t0, List<long[]> splits) {
    if (t0 <= spanStartNs) {
      return new long[] {-1, spanStartNs};
    }
    long[] fork = cx.threadForks().get(tid);
    if (fork != null && fork[0] <= t0 && fork[0] >= spanStartNs) {
      Integer kc = threadOf.get((int) fork[1]);
      if (kc != null && kc != k && runningAt(kc, fork[0])) {
        splits.add(new long[] {kc, fork[0]});
        return new long[] {kc, fork[0]};
      }
    }
    Integer km = threadOf.get(ExecutionGraph.mainTid(cx.pid()));
    if (km != null && km != k && runningAt(km, t0)) {
      creatorsGuessed++;
      splits.add(new long[] {km, t0});
      return new long[] {km, t0};
    }
    creatorsUnknown++;
    return new long[] {-1, spanStartNs};
  }

  /** Whether thread k ran at instant t (a run from before t to t or later). */
  private boolean runningAt(int k, long t) {
    int[] range = ranges.get(k);
    int lo = range[0];
    int hi = range[1];
    while (lo < hi) { // the first piece ending at or after t
      int mid = (lo + hi) >>> 1;
      if (r.pieceEndNs(mid) < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (int p = lo; p < range[1] && r.pieceStartNs(p) <= t; p++) {
      if (r.pieceState(p) == ThreadState.RUNNING && r.pieceStartNs(p) < t
          || r.pieceState(p) == ThreadState.RUNNING && r.pieceStartNs(p) == t
          && r.pieceEndNs(p) > t) {
        return t >= spanStartNs && t <= spanEndNs;
      }
    }
    return false;
  }

  /** A blocked piece's reason, or null when a thread of the process woke it. */
  String reasonOf(int p) {
    return crossOfPiece.containsKey(p) ? null : reasonOfPiece.getOrDefault(p, "unknown");
  }

  /** Sets the cross edges of the graph's nodes. */
  void link(ExecutionGraph g) {
    for (Map.Entry<Integer, long[]> e : crossOfPiece.entrySet()) {
      int p = e.getKey();
      int k = threadOf.get(r.pieceTid(p));
      long at = e.getValue()[1];
      int source = g.nodeAt((int) e.getValue()[0], at);
      int end = g.nodeAt(k, Math.min(r.pieceEndNs(p), spanEndNs));
      if (end >= 0 && source >= 0) {
        g.cross[end] = source;
        g.crossNs[end] = g.time[end] - at;
      }
    }
    for (int k = 0; k < starts.length; k++) {
      int first = g.threadFirst[k];
      if (starts[k] == null || first == g.threadFirst[k + 1]) {
        continue;
      }
      int source = starts[k][0] < 0 ? ExecutionGraph.ORIGIN
          : g.nodeAt((int) starts[k][0], starts[k][1]);
      g.cross[first] = source == ExecutionGraph.NONE ? ExecutionGraph.ORIGIN : source;
      g.crossNs[first] = g.cross[first] == ExecutionGraph.ORIGIN ? g.time[first] - spanStartNs
          : g.time[first] - starts[k][1];
      if (g.cross[first] == ExecutionGraph.ORIGIN && g.time[first] > spanStartNs) {
        g.reason[first] = "thread start (creator not known)";
      }
    }
  }

  List<String> notes() {
    List<String> out = new ArrayList<>();
    if (wakesNotFollowed > 0) {
      out.add(wakesNotFollowed + " wake-ups by the process's own threads were not followed"
          + " (the waker was not seen running then): those waits end the walk as 'unknown'");
    }
    if (waitsWithoutWake > 0 && cx.hasWakers()) {
      out.add(waitsWithoutWake + " blocked waits have no wake-up record where they end and no"
          + " thread of the process ran within 1 ms before: they end the walk as 'unknown'");
    }
    if (wakesGuessed > 0) {
      out.add(wakesGuessed + " blocked waits have no wake-up record where they end (perf lost"
          + " it): the waker is taken to be the process's thread that ran last within 1 ms"
          + " before");
    }
    if (queuedWakers > 0) {
      out.add(queuedWakers + " wake-ups were recorded in the idle task of the woken thread's"
          + " CPU (a wake-up another CPU queued there): the waker is taken to be the"
          + " process's thread running then (record sched:sched_waking to know it)");
    }
    if (creatorsGuessed > 0) {
      out.add(creatorsGuessed + " threads have no fork record: their creator is taken to be"
          + " the main thread, which was running when they first appeared");
    }
    if (creatorsUnknown > 0) {
      out.add(creatorsUnknown + " threads started after the span's start without a known"
          + " creator: the path waits for them from the start ('thread start')");
    }
    if (!cx.hasWakers()) {
      out.add("no wake-up records (sched:sched_wakeup): a blocked wait cannot be followed to"
          + " the thread that ended it, so every wait ends the walk as 'unknown'");
    }
    return out;
  }
}
