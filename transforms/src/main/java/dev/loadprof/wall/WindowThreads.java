package dev.loadprof.wall;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Intervals;
import dev.loadprof.model.Switches;
import dev.loadprof.model.ThreadState;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.Wakeups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Turns the blocks of every CPU of one (run, window), after interval building, into each
 * process's {@link ThreadMarks}: its threads' runs, switch-outs and wakeups, who held the CPU
 * before each run, and the instants of the window at which none of its threads ran.
 */
public final class WindowThreads {
  private WindowThreads() {}

  /** Adds the window's marks of each process to {@code marksOf.apply(pid)}. */
  public static void collect(EventBlock[] cpus, IntFunction<ThreadMarks> marksOf) {
    if (cpus.length == 0) {
      return;
    }
    long windowStart = cpus[0].windowStartNs;
    long lastSeen = Long.MIN_VALUE;
    Map<Integer, Integer> pidOfTid = new HashMap<>();
    Map<Integer, ThreadMarks> byPid = new HashMap<>();
    for (EventBlock b : cpus) {
      Intervals iv = b.intervals;
      for (int i = 0; i < iv.count; i++) {
        lastSeen = Math.max(lastSeen, iv.end[i]);
        if (known(iv.pid[i])) {
          pidOfTid.put(iv.tid[i], iv.pid[i]);
          byPid.computeIfAbsent(iv.pid[i], p -> new ThreadMarks()).addRun(iv.tid[i], iv.start[i],
              iv.end[i], b.cpu, iv.start[i], 0, 0,
              TraceEventSink.UNKNOWN_ID);
        }
      }
      Switches s = b.switches;
      CallStack[] stackOf = new CallStack[b.stackTable.stacks.length];
      for (int i = 0; i < s.count; i++) {
        lastSeen = Math.max(lastSeen, s.time[i]);
        if (s.prevTid[i] == 0 || s.prevTid[i] == s.nextTid[i] || !known(s.prevPid[i])) {
          continue; // no thread switched out, or an exec (the thread runs on)
        }
        pidOfTid.put(s.prevTid[i], s.prevPid[i]);
        ThreadMarks m = byPid.computeIfAbsent(s.prevPid[i], p -> new ThreadMarks());
        int state = s.prevState[i];
        m.sawStates |= state != ThreadState.NO_STATE && state != ThreadState.UNKNOWN.code();
        int stackId = s.prevStack[i];
        m.sawStacks |= stackId != TraceEventSink.UNKNOWN_ID;
        CallStack where = null;
        if (stackId != TraceEventSink.UNKNOWN_ID) {
          where = stackOf[stackId];
          if (where == null) {
            where = b.stackTable.callStack(stackId);
            stackOf[stackId] = where;
          }
        }
        m.addOut(s.prevTid[i], s.time[i],
            state == ThreadState.NO_STATE ? ThreadState.UNKNOWN.code() : state, where);
      }
      if (b.samples.count > 0) {
        lastSeen = Math.max(lastSeen, b.samples.time[b.samples.count - 1]);
      }
      // Blocks built before 2026-11-28 (an archive may hold them) end a thread carried through
      // 10 s of a silent CPU with Long.MAX_VALUE as the run's end: not an instant of the trace
      // (taken for its end, it made waits 292 years long).
      if (b.cpuTail && b.runEndNs != Long.MAX_VALUE) {
        lastSeen = Math.max(lastSeen, b.runEndNs);
      }
    }
    for (EventBlock b : cpus) {
      Wakeups w = b.wakeups;
      for (int i = 0; i < w.count; i++) {
        lastSeen = Math.max(lastSeen, w.time[i]);
        // The block's own pid first: the woken thread may do nothing else in this window.
        Integer pid = known(w.pid[i]) ? Integer.valueOf(w.pid[i]) : pidOfTid.get(w.tid[i]);
        if (pid == null) {
          continue;
        }
        byPid.computeIfAbsent(pid, p -> new ThreadMarks()).addWake(w.tid[i], w.time[i],
            w.wakerPid[i], w.wakerTid[i]);
      }
    }
    Map<Integer, CpuRuns> runsOfCpu = new HashMap<>();
    List<CpuRuns> allRuns = new ArrayList<>();
    for (EventBlock b : cpus) {
      CpuRuns r = new CpuRuns(b.cpu, b.intervals);
      runsOfCpu.put(b.cpu, r);
      allRuns.add(r);
    }
    for (Map.Entry<Integer, ThreadMarks> e : byPid.entrySet()) {
      ThreadMarks m = WindowMarks.compact(e.getValue());
      m.noteEnd(lastSeen);
      addOccupancy(m, e.getKey(), runsOfCpu, allRuns, windowStart,
          Math.min(cpus[0].windowEndNs, lastSeen));
      marksOf.apply(e.getKey()).mergeFrom(m);
    }
  }

  private static boolean known(int pid) {
    return pid != 0 && pid != TraceEventSink.UNKNOWN_ID;
  }

  /**
   * For each run that starts in the window, who held its CPU from the thread's previous mark in
   * this window (or the window start) until the run: the process's own threads, another
   * process (the one that held it longest), or nobody known. A thread left runnable at the end
   * (preempted, or woken from a sleep) may run again only in a later window, on any CPU: for
   * each CPU that someone held, a tail mark says who, from then to the end.
   */
  private static void addOccupancy(ThreadMarks m, int pid, Map<Integer, CpuRuns> runsOfCpu,
      List<CpuRuns> allRuns, long windowStart, long windowEnd) {
    int[] order = MarkOrder.of(m);
    List<long[]> leftRunnable = new ArrayList<>(); // {mark, runnable since}
    int previousTid = Integer.MIN_VALUE;
    long previousEnd = windowStart;
    boolean preempted = false;
    for (int k = 0; k < order.length; k++) {
      int i = order[k];
      if (m.tid[i] != previousTid) {
        previousTid = m.tid[i];
        previousEnd = windowStart;
        preempted = false;
      }
      if (m.kind[i] == ThreadMarks.RUN && m.time[i] > previousEnd) {
        Occupancy o = runsOfCpu.get(m.code[i]).occupancy(m.tid[i], pid, previousEnd, m.time[i]);
        m.occupiedFrom[i] = previousEnd;
        m.ownNs[i] = o.own;
        m.otherNs[i] = o.other;
        m.otherPid[i] = o.top;
      }
      // A wakeup of a thread already runnable since its preemption changes nothing (the
      // replay ignores it too): the look at the CPU still starts at the switch-out.
      if (!(m.kind[i] == ThreadMarks.WAKE && preempted)) {
        previousEnd = Math.max(previousEnd, m.end[i]);
      }
      if (m.kind[i] != ThreadMarks.WAKE) {
        int runnable = ThreadState.RUNNABLE.code();
        preempted = (m.kind[i] == ThreadMarks.OUT && m.code[i] == runnable)
            || (m.kind[i] == ThreadMarks.RUN && m.out[i] == runnable);
      }
      boolean lastOfThread = k + 1 == order.length || m.tid[order[k + 1]] != m.tid[i];
      if (lastOfThread && previousEnd < windowEnd
          && (preempted || m.kind[i] == ThreadMarks.WAKE)) {
        leftRunnable.add(new long[] {i, previousEnd});
      }
    }
    for (long[] left : leftRunnable) {
      int i = (int) left[0];
      for (CpuRuns r : allRuns) {
        Occupancy o = r.occupancy(m.tid[i], pid, left[1], windowEnd);
        if (o.own + o.other > 0) {
          m.addTail(m.tid[i], left[1], windowEnd, r.cpu, o.own, o.other, o.top);
        }
      }
    }
  }

  /**
   * A CPU's run intervals in the window (sorted by start), with the latest end up to each one,
   * so that a look at [from, to) starts at the first interval that can overlap it instead of
   * at the window's start.
   */
  static final class CpuRuns {
    final int cpu;
    final Intervals iv;
    /** maxEnd[j]: the latest end of intervals 0..j (non-decreasing). */
    final long[] maxEnd;

    CpuRuns(int cpu, Intervals iv) {
      this.cpu = cpu;
      this.iv = iv;
      maxEnd = new long[iv.count];
      long latest = Long.MIN_VALUE;
      for (int j = 0; j < iv.count; j++) {
        latest = Math.max(latest, iv.end[j]);
        maxEnd[j] = latest;
      }
    }

    /** Who held the CPU over [from, to), besides the thread tid. */
    Occupancy occupancy(int tid, int pid, long from, long to) {
      // Intervals before the first whose running latest end passes from end at or before it:
      // none of them overlaps [from, to).
      int lo = 0;
      int hi = iv.count;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (maxEnd[mid] > from) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      long own = 0;
      Map<Integer, Long> others = new HashMap<>();
      for (int j = lo; j < iv.count && iv.start[j] < to; j++) {
        long overlap = Math.min(to, iv.end[j]) - Math.max(from, iv.start[j]);
        if (overlap <= 0 || iv.tid[j] == tid) {
          continue;
        }
        if (iv.pid[j] == pid) {
          own += overlap;
        } else {
          others.merge(iv.pid[j], overlap, Long::sum);
        }
      }
      return Occupancy.of(own, others);
    }
  }

  /** Who held a CPU over [from, to), besides the thread tid. */
  record Occupancy(long own, long other, int top) {
    static Occupancy of(long own, Map<Integer, Long> others) {
      long other = 0;
      int top = TraceEventSink.UNKNOWN_ID;
      long topNs = -1;
      for (Map.Entry<Integer, Long> e : others.entrySet()) {
        other += e.getValue();
        if (e.getKey() == TraceEventSink.UNKNOWN_ID) {
          continue; // another process, but not one that can be named
        }
        if (e.getValue() > topNs || (e.getValue() == topNs && e.getKey() < top)) {
          topNs = e.getValue();
          top = e.getKey();
        }
      }
      return new Occupancy(own, other, top);
    }
  }
}
