package dev.loadprof.wall;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.load.CpuTimeline;
import dev.loadprof.load.LoadJoiner;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A hand-made run through the same cores as the pipeline (blocks, run intervals, the load join
 * with its thread marks), so a test states events and reads one process's thread states.
 */
final class WallRun {
  static final long MS = 1_000_000L;
  static final int NONE = TraceEventSink.UNKNOWN_ID;
  static final Frame[] NO_STACK = new Frame[0];

  final Map<Integer, ProcessAccumulator> processes = new HashMap<>();

  /** Runs the events with windows of windowMs, so that waits can cross windows. */
  static WallRun of(long windowMs, Consumer<BlockBuilder> events) {
    return of(windowMs, events, block -> { });
  }

  /** The same, each block changed by asRead before its intervals (as an archive gives it). */
  static WallRun of(long windowMs, Consumer<BlockBuilder> events, Consumer<EventBlock> asRead) {
    Map<Long, List<EventBlock>> byWindow = new TreeMap<>();
    BlockBuilder b = new BlockBuilder("run", "t.txt", windowMs * MS, null, block -> {
      asRead.accept(block);
      CpuTimeline.replay(block, true);
      byWindow.computeIfAbsent(block.window, w -> new ArrayList<>()).add(block);
    });
    events.accept(b);
    b.finish();
    WallRun run = new WallRun();
    for (List<EventBlock> blocks : byWindow.values()) {
      LoadJoiner.join(blocks).forEach((pid, acc) ->
          run.processes.merge(pid, acc, ProcessAccumulator::mergeFrom));
    }
    return run;
  }

  ThreadStateSummary states(int pid, WaitFilter filter) {
    ProcessAccumulator acc = accumulator(pid);
    return ThreadStates.compute(acc.threads, acc.spanStartNs, acc.spanEndNs, filter);
  }

  /** The states on a machine of the given CPUs (a system-wide recording). */
  ThreadStateSummary states(int pid, WaitFilter filter, int cpus) {
    ProcessAccumulator acc = accumulator(pid);
    return ThreadStates.compute(acc.threads, acc.spanStartNs, acc.spanEndNs,
        acc.threads.traceEndNs, filter, cpus);
  }

  private ProcessAccumulator accumulator(int pid) {
    ProcessAccumulator acc = processes.get(pid);
    if (acc == null) {
      throw new AssertionError("no process " + pid + " in " + processes.keySet());
    }
    return acc;
  }

  /**
   * Thread 10 of process 10 runs 0-3 ms, sleeps in doze 3-8, is woken at 8, runs 9-12 and
   * sleeps again to the trace's end at 20 (another process's sample on CPU 1).
   */
  static void sleepWokenAndSleepingAgain(BlockBuilder b) {
    dozes(b, new double[] {0, 1, 2}, 3, 8, 9);
    sample(b, 10, 0, 10, 10, "a");
    sample(b, 11, 0, 10, 10, "a");
    swap(b, 12, 0, 10, 10, "S", 0, "swapper/0", stack("do_nanosleep", "doze"));
    sample(b, 20, 1, 20, 20, "other");
  }

  /**
   * Thread 10 ("a") runs on CPU 0, sampled at {@code aMs}, sleeps in doze from {@code outMs}
   * (the CPU idle), is woken at {@code wakeMs} and runs again from {@code backMs}.
   */
  static void dozes(BlockBuilder b, double[] aMs, double outMs, double wakeMs, double backMs) {
    for (double t : aMs) {
      sample(b, t, 0, 10, 10, "a");
    }
    swap(b, outMs, 0, 10, 10, "S", 0, "swapper/0", stack("do_nanosleep", "doze"));
    b.schedWakeup((long) (wakeMs * MS), 0, 0, 0, 10, "a", 0);
    swap(b, backMs, 0, 0, 0, "R", 10, "a", NO_STACK);
  }

  /**
   * Thread 10 ("a") runs on CPU 0, sampled at {@code aMs}, until process 30 ("hog") preempts it
   * at {@code outMs}; the hog, sampled at {@code hogMs}, holds the CPU until thread 10 is back at
   * {@code backMs}. A wakeup of thread 10 by the hog at {@code wakeupMs} (before a hog sample at
   * the same instant), unless NaN.
   */
  static void preemptedByHog(BlockBuilder b, double[] aMs, double outMs, double[] hogMs,
      double wakeupMs, double backMs) {
    for (double t : aMs) {
      sample(b, t, 0, 10, 10, "a");
    }
    swap(b, outMs, 0, 10, 10, "R", 30, "hog", NO_STACK);
    boolean woken = Double.isNaN(wakeupMs);
    for (double t : hogMs) {
      if (!woken && t >= wakeupMs) {
        b.schedWakeup((long) (wakeupMs * MS), 0, 30, 30, 10, "a", 0);
        woken = true;
      }
      sample(b, t, 0, 30, 30, "hog");
    }
    if (!woken) {
      b.schedWakeup((long) (wakeupMs * MS), 0, 30, 30, 10, "a", 0);
    }
    swap(b, backMs, 0, 30, 30, "R", 10, "a", NO_STACK);
  }

  static Frame[] stack(String... symbols) {
    Frame[] frames = new Frame[symbols.length];
    for (int i = 0; i < symbols.length; i++) {
      frames[i] = new Frame(symbols[i], "x");
    }
    return frames;
  }

  static void sample(BlockBuilder b, double ms, int cpu, int pid, int tid, String comm) {
    b.sample((long) (ms * MS), cpu, pid, tid, comm, "cpu-clock", MS, stack("work"));
  }

  static void swap(BlockBuilder b, double ms, int cpu, int prevPid, int prevTid, String state,
      int nextTid, String nextComm, Frame[] where) {
    b.schedSwitch((long) (ms * MS), cpu, 1, prevPid, prevTid, prevTid == 0 ? "swapper" : "p",
        state, nextTid, nextComm, where);
  }
}
