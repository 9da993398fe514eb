package dev.loadprof.load;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Intervals;
import dev.loadprof.model.Samples;
import dev.loadprof.model.Switches;
import dev.loadprof.model.Wakeups;
import dev.loadprof.model.TraceHealth;
import java.util.Arrays;

/**
 * Replays the events of one CPU in time order and says who ran when: the run intervals.
 *
 * <p>The switch chain alone is not enough on real traces. Some switches are never recorded (on
 * the project's VMs no idle-to-task switch on CPU 1 is), and a CPU's first and last threads have
 * no switch on one side. The repair uses the one fact that holds for every sampling event: a
 * running thread is sampled every sample interval on its CPU. So when the chain says "idle" (or
 * nothing yet) and a thread is sampled or switched out anyway, that thread started at its
 * sched_wakeup on this CPU if one was recorded, or else half an interval before its first
 * sample. At the end of the trace a running thread stops half an interval after its last sample.
 *
 * <p>A thread that is switched out but was never sampled ran between two ticks of the sampling
 * timer. With one timer per CPU counting nanoseconds (cpu-clock in a system-wide recording) the
 * ticks keep their phase, so the CPU's last sample of any thread tells when its last tick before
 * the switch-out was: the thread started after that tick, and is taken to start midway between
 * it and the switch-out. Crediting it half an interval instead, as when the phase is unknown,
 * made such runs (mostly a few microseconds long) about 100 us too long on average on the
 * project's VMs; the tick halves that (bench/RESULTS.md, section 27).
 *
 * <p>The same replay computes a block's carry-out state (when blocks are built) and its intervals
 * (when they are used), so the two can never disagree.
 */
public final class CpuTimeline {
  private static final int MAX_WAKEUPS = 16;

  private final long runStartNs;
  private final long windowStartNs;
  private final long windowEndNs;
  private final long halfIntervalNs;
  private final long intervalNs;
  /** Whether this lane's samples come from one timer per CPU that counts nanoseconds. */
  private final boolean cpuTicks;
  private final CpuState state;
  private final Intervals out;

  long chainBreaks;
  long chainBreaksFromWakeup;
  long edgesInferred;
  long contradicted;

  /**
   * @param cpuTicks true when the lane is a CPU sampled by its own nanosecond timer (see the class
   *     comment); its ticks' phase then dates runs that were never sampled
   * @param out where intervals go; null when only the end state is wanted
   */
  public CpuTimeline(long runStartNs, long windowStartNs, long windowEndNs, long sampleIntervalNs,
      boolean cpuTicks, CpuState start, Intervals out) {
    this.runStartNs = runStartNs;
    this.windowStartNs = windowStartNs;
    this.windowEndNs = windowEndNs;
    this.halfIntervalNs = Math.max(1, sampleIntervalNs / 2);
    this.intervalNs = Math.max(1, sampleIntervalNs);
    this.cpuTicks = cpuTicks;
    this.state = start.copy();
    this.out = out;
  }

  public CpuState state() {
    return state;
  }

  /**
   * Replays a block from its carry-in. With {@code collect}, fills the block's intervals, sample
   * flags and health counters. Returns the state at the window end (after the tail, for the last
   * block of a CPU).
   */
  public static CpuState replay(EventBlock b, boolean collect) {
    Intervals intervals = collect ? new Intervals() : null;
    CpuTimeline t = new CpuTimeline(b.runStartNs, b.windowStartNs, b.windowEndNs, b.sampleIntervalNs,
        b.periodIsNanoseconds && !b.threadLane, b.carryIn, intervals);
    Samples samples = b.samples;
    Switches switches = b.switches;
    Wakeups wakeups = b.wakeups;
    byte[] flags = collect ? new byte[samples.count] : null;
    int s = 0;
    int w = 0;
    int k = 0;
    // Merge the three sorted columns. At equal times: wakeup, then switch, then sample.
    while (s < samples.count || w < switches.count || k < wakeups.count) {
      long ts = s < samples.count ? samples.time[s] : Long.MAX_VALUE;
      long tw = w < switches.count ? switches.time[w] : Long.MAX_VALUE;
      long tk = k < wakeups.count ? wakeups.time[k] : Long.MAX_VALUE;
      if (tk <= tw && tk <= ts) {
        t.wakeup(tk, wakeups.tid[k]);
        k++;
      } else if (tw <= ts) {
        t.schedSwitch(tw, switches.prevTid[w], switches.prevPid[w], switches.nextTid[w],
            switches.nextPid[w]);
        w++;
      } else {
        boolean agrees = t.sample(ts, samples.tid[s], samples.pid[s]);
        if (!agrees && flags != null) {
          flags[s] = EventBlock.FLAG_CONTRADICTED;
        }
        s++;
      }
    }
    if (b.cpuTail) {
      t.finish(b.runEndNs, b.windowEndNs);
    } else {
      t.closeWindow(b.windowEndNs);
    }
    if (collect) {
      b.intervals = intervals;
      b.sampleFlags = flags;
      b.health.clear();
      b.addHealth(TraceHealth.CHAIN_BREAKS_REPAIRED, t.chainBreaks);
      b.addHealth(TraceHealth.CHAIN_BREAKS_FROM_WAKEUP, t.chainBreaksFromWakeup);
      b.addHealth(TraceHealth.EDGES_INFERRED, t.edgesInferred);
      b.addHealth(TraceHealth.SAMPLES_CONTRADICTED, t.contradicted);
    }
    return t.state;
  }

  /**
   * Returns false when the sample contradicts the switch chain: the chain says another thread
   * (or idle) runs. The sample wins: the kernel took it in the thread that was running, so a
   * switch is missing, and the timeline is repaired as for any other chain break.
   */
  public boolean sample(long t, int tid, int pid) {
    state.lastTickNs = t;
    if (state.kind == CpuState.Kind.RUNNING) {
      if (state.tid == tid) {
        state.lastEvidenceNs = t;
        return true;
      }
      // The old thread stopped after its last sample and at most half an interval before this one.
      long oldEnd = Math.max(state.sinceNs,
          Math.min(state.lastEvidenceNs + halfIntervalNs, t - halfIntervalNs));
      emit(state.sinceNs, oldEnd, state.tid, state.pid);
      contradicted++;
      chainBreaks++;
      if (tid == 0) {
        goIdle(oldEnd);
      } else {
        run(tid, pid, Math.max(oldEnd, t - halfIntervalNs), t);
      }
      return false;
    }
    if (tid == 0) {
      // The idle task itself was sampled (only some CPUs sample idle).
      if (state.kind == CpuState.Kind.UNKNOWN) {
        goIdle(Math.max(runStartNs, t - halfIntervalNs));
      }
      return true;
    }
    if (state.kind == CpuState.Kind.IDLE) {
      chainBreaks++;
      run(tid, pid, repairedStart(tid, t, state.sinceNs, true), t);
    } else { // UNKNOWN: the thread that was running when the trace (or this CPU) started
      edgesInferred++;
      run(tid, pid, startedBefore(tid, t, runStartNs, true), t);
    }
    return true;
  }

  public void schedSwitch(long t, int prevTid, int prevPid, int nextTid, int nextPid) {
    switch (state.kind) {
      case RUNNING:
        if (state.tid == prevTid) {
          emit(state.sinceNs, t, state.tid, state.pid);
        } else {
          // A task-to-task switch is missing: the old thread stopped after its last sample,
          // and prev (which this switch proves was running) ran since then at the earliest.
          long oldEnd = Math.min(t, state.lastEvidenceNs + halfIntervalNs);
          emit(state.sinceNs, oldEnd, state.tid, state.pid);
          chainBreaks++;
          if (prevTid != 0) {
            emit(unsampledStart(t, oldEnd), t, prevTid, prevPid);
          }
        }
        break;
      case IDLE:
        if (prevTid != 0) {
          // "X ==> idle" then "prev ==> next": prev was switched in without a record.
          chainBreaks++;
          emit(repairedStart(prevTid, t, state.sinceNs, false), t, prevTid, prevPid);
        }
        break;
      default: // UNKNOWN: the first switch on this CPU; prev was never sampled, so ran briefly.
        if (prevTid != 0) {
          edgesInferred++;
          emit(startedBefore(prevTid, t, runStartNs, false), t, prevTid, prevPid);
        }
        break;
    }
    if (nextTid == 0) {
      goIdle(t);
    } else {
      state.kind = CpuState.Kind.RUNNING;
      state.tid = nextTid;
      state.pid = nextPid;
      state.sinceNs = t;
      state.lastEvidenceNs = t;
      clearWakeups();
    }
  }

  public void wakeup(long t, int tid) {
    if (state.kind == CpuState.Kind.RUNNING) {
      return; // only wakeups into an idle CPU can stand in for a missing switch-in
    }
    int n = state.wakeTids.length;
    if (n == MAX_WAKEUPS) {
      state.wakeTids = Arrays.copyOfRange(state.wakeTids, 1, n);
      state.wakeTimes = Arrays.copyOfRange(state.wakeTimes, 1, n);
      n--;
    }
    state.wakeTids = Arrays.copyOf(state.wakeTids, n + 1);
    state.wakeTimes = Arrays.copyOf(state.wakeTimes, n + 1);
    state.wakeTids[n] = tid;
    state.wakeTimes[n] = t;
  }

  /** Ends the window: the running thread's interval is cut here and carried into the next. */
  public void closeWindow(long windowEndNs) {
    if (state.kind == CpuState.Kind.RUNNING && windowEndNs > state.sinceNs) {
      emit(state.sinceNs, windowEndNs, state.tid, state.pid);
      state.sinceNs = windowEndNs;
    }
  }

  /**
   * Ends the trace for this CPU: the running thread stops half an interval after its last sample.
   * If that is past this window, the thread is still RUNNING in the returned state.
   */
  public void finish(long runEndNs, long windowEndNs) {
    if (state.kind != CpuState.Kind.RUNNING) {
      return;
    }
    long end = tailEnd(runEndNs);
    if (end > windowEndNs) {
      closeWindow(windowEndNs);
    } else {
      emit(state.sinceNs, end, state.tid, state.pid);
      goIdle(end);
    }
  }

  /** When the running thread stops if nothing else happens before the trace ends at runEndNs. */
  public long tailEnd(long runEndNs) {
    if (state.kind != CpuState.Kind.RUNNING) {
      return state.sinceNs;
    }
    return Math.max(state.sinceNs, Math.min(runEndNs, state.lastEvidenceNs + halfIntervalNs));
  }

  /**
   * Start of a thread switched in without a record, first seen running at t: its first sample
   * ({@code sampled}), or its switch-out.
   */
  private long repairedStart(int tid, long t, long floorNs, boolean sampled) {
    long wake = lastWakeup(tid, t);
    if (wake != Long.MIN_VALUE) {
      chainBreaksFromWakeup++;
      return Math.max(floorNs, wake);
    }
    return sampled ? Math.max(floorNs, t - halfIntervalNs) : unsampledStart(t, floorNs);
  }

  /** Start of the thread that was running when this CPU's trace begins, first seen at t. */
  private long startedBefore(int tid, long t, long floorNs, boolean sampled) {
    long wake = lastWakeup(tid, t);
    if (wake != Long.MIN_VALUE) {
      return Math.max(floorNs, wake);
    }
    return sampled ? Math.max(floorNs, t - halfIntervalNs) : unsampledStart(t, floorNs);
  }

  /**
   * Start of a thread switched out at t that was never sampled, not before floorNs: midway
   * between t and the CPU's last tick before it when the ticks' phase is known, else half an
   * interval before t. Either way it lies within an interval of t, as before.
   */
  private long unsampledStart(long t, long floorNs) {
    long lastTickNs = state.lastTickNs;
    if (!cpuTicks || lastTickNs == Long.MIN_VALUE || lastTickNs > t) {
      return Math.max(floorNs, t - halfIntervalNs);
    }
    long lastTick = t - (t - lastTickNs) % intervalNs;
    if (t - lastTick < intervalNs / 16) {
      // Too close to tell from the ticks' jitter whether that tick came before the switch-out.
      lastTick -= intervalNs;
    }
    long from = Math.max(floorNs, lastTick);
    return from >= t ? Math.max(floorNs, t - halfIntervalNs) : from + (t - from) / 2;
  }

  private long lastWakeup(int tid, long t) {
    for (int i = state.wakeTids.length - 1; i >= 0; i--) {
      if (state.wakeTids[i] == tid && state.wakeTimes[i] <= t) {
        return state.wakeTimes[i];
      }
    }
    return Long.MIN_VALUE;
  }

  private void run(int tid, int pid, long since, long evidence) {
    state.kind = CpuState.Kind.RUNNING;
    state.tid = tid;
    state.pid = pid;
    state.sinceNs = since;
    state.lastEvidenceNs = evidence;
    clearWakeups();
  }

  private void goIdle(long since) {
    state.kind = CpuState.Kind.IDLE;
    state.tid = 0;
    state.pid = 0;
    state.sinceNs = since;
    state.lastEvidenceNs = since;
    clearWakeups();
  }

  private void clearWakeups() {
    if (state.wakeTids.length > 0) {
      state.wakeTids = new int[0];
      state.wakeTimes = new long[0];
    }
  }

  private void emit(long start, long end, int tid, int pid) {
    // A repaired start can fall before the window; the part outside it is not this block's.
    if (out != null && tid != 0) {
      out.add(Math.max(start, windowStartNs), Math.min(end, windowEndNs), tid, pid);
    }
  }
}
