package dev.loadprof.wall;

import static dev.loadprof.wall.WallRun.MS;
import static dev.loadprof.wall.WallRun.NONE;
import static dev.loadprof.wall.WallRun.NO_STACK;
import static dev.loadprof.wall.WallRun.preemptedByHog;
import static dev.loadprof.wall.WallRun.sample;
import static dev.loadprof.wall.WallRun.stack;
import static dev.loadprof.wall.WallRun.swap;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.model.ThreadState;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where a thread's life starts, and waits whose runnable part crosses a window boundary: the
 * window that holds the run does not see who held the CPU before it, the window before does.
 */
class ThreadLifeTest {
  private static final double EPS = 1e-6;

  /**
   * A per-process recording whose first record is the main thread's switch-out (it sleeps
   * before it is ever sampled): the span starts there, not at its first run.
   */
  @Test
  void aSpanStartsAtTheFirstSwitchOutBeforeAnyRun() {
    ThreadStateSummary s = WallRun.of(10, b -> {
      b.contextSwitch(1 * MS, NONE, 10, 10, "a", false, false);
      b.contextSwitch(5 * MS, NONE, 10, 10, "a", true, false);
      b.contextSwitch(8 * MS, NONE, 10, 10, "a", false, false);
      b.contextSwitch(9 * MS, NONE, 10, 10, "a", true, false);
      b.contextSwitch(12 * MS, NONE, 10, 10, "a", false, true);
    }).states(10, WaitFilter.ALL);
    assertEquals(11.0 * MS, s.spanNs, "from the first OUT (1 ms) to the last run's end (12)");
    assertEquals(6.0 * MS, s.onCpuRealNs);
    assertEquals(5.0 * MS, s.load0Ns);
    assertEquals(5.0 * MS, s.byState(ThreadState.UNKNOWN), EPS);
    assertEquals(5.0 * MS, s.load0ByState()[ThreadState.UNKNOWN.ordinal()], EPS);
  }

  /**
   * System-wide: a thread preempted by another process at 8 ms runs again at 13 ms; windows are
   * 10 ms, so its runnable wait crosses the boundary. All 5 ms are the other process's.
   */
  @Test
  void runnableTimeAcrossAWindowBoundaryIsAttributed() {
    ThreadStateSummary s = WallRun.of(10, b -> {
      preemptedByHog(b, new double[] {1, 4, 7}, 8, new double[] {9, 11, 12}, Double.NaN, 13);
      sample(b, 14, 0, 10, 10, "a");
      swap(b, 15, 0, 10, 10, "X", 0, "swapper/0", NO_STACK);
    }).states(10, WaitFilter.ALL);
    assertEquals(5.0 * MS, s.byState(ThreadState.RUNNABLE), EPS);
    assertEquals(5.0 * MS, s.runnableOtherNs, EPS);
    assertEquals(0, s.runnableUnattributedNs, EPS);
    assertEquals(Map.of(30, 5.0 * MS), s.runnableByPid);
  }

  /**
   * Woken at 7 ms while its own other thread holds CPU 1 until 16 ms, where it then runs: the
   * runnable 9 ms cross the boundary at 10 ms and are all the own thread's; the sleep before
   * the wakeup is not runnable time.
   */
  @Test
  void aWakeupBeforeTheBoundaryKeepsItsRunnableTimeWhole() {
    ThreadStateSummary s = WallRun.of(10, b -> {
      b.fork(0, 10, 11, 10, 10);
      sample(b, 0.5, 0, 10, 10, "a");
      sample(b, 0.5, 1, 10, 11, "a");
      swap(b, 1, 0, 10, 10, "S", 0, "swapper/0", stack("futex_wait", "wait_item"));
      for (int ms = 2; ms < 16; ms++) {
        sample(b, ms, 1, 10, 11, "a");
        if (ms == 6) {
          b.schedWakeup(7 * MS, 1, 10, 11, 10, "a", 1);
        }
      }
      swap(b, 16, 1, 10, 11, "S", 10, "a", stack("futex_wait", "wait_item"));
      sample(b, 17, 1, 10, 10, "a");
      swap(b, 18, 1, 10, 10, "X", 0, "swapper/1", NO_STACK);
    }).states(10, WaitFilter.ALL);
    assertEquals(9.0 * MS, s.byState(ThreadState.RUNNABLE), EPS);
    assertEquals(9.0 * MS, s.runnableOwnNs, EPS);
    assertEquals(0, s.runnableOtherNs, EPS);
    assertEquals(0, s.runnableUnattributedNs, EPS);
  }

  /** -C keeps a thread's runs on those CPUs and its waits after it last left one of them. */
  @Test
  void cpusKeepTheRunsThereAndTheWaitsThatLeftThem() {
    WallRun r = WallRun.of(10, b -> {
      sample(b, 1, 0, 10, 10, "a");
      sample(b, 2, 0, 10, 10, "a");
      swap(b, 3, 0, 10, 10, "S", 0, "swapper/0", stack("doze"));
      swap(b, 9, 1, 0, 0, "R", 10, "a", NO_STACK);
      sample(b, 10, 1, 10, 10, "a");
      sample(b, 11, 1, 10, 10, "a");
      swap(b, 12, 1, 10, 10, "X", 0, "swapper/1", NO_STACK);
    });
    ThreadStateSummary cpu0 = r.states(10, new WaitFilter(null, Set.of(0), true, null, 0,
        Integer.MAX_VALUE));
    ThreadStateSummary cpu1 = r.states(10, new WaitFilter(null, Set.of(1), true, null, 0,
        Integer.MAX_VALUE));
    assertEquals(2.0 * MS, cpu0.byState(ThreadState.RUNNING), EPS);
    assertEquals(6.0 * MS, cpu0.byState(ThreadState.SLEEPING), EPS);
    assertEquals(3.0 * MS, cpu1.byState(ThreadState.RUNNING), EPS);
    assertEquals(0, cpu1.byState(ThreadState.SLEEPING), EPS);
  }

  /**
   * A wakeup of a thread that is runnable already (preempted at 3 ms, "woken" at 5.9, run at 6)
   * does not cut the look at who held its CPU: all 3 ms are the other process's.
   */
  @Test
  void aWakeupOfAPreemptedThreadKeepsItsWholeWaitAttributed() {
    ThreadStateSummary s = WallRun.of(10, b -> {
      preemptedByHog(b, new double[] {1, 2}, 3, new double[] {4, 5}, 5.9, 6);
      sample(b, 7, 0, 10, 10, "a");
      swap(b, 8, 0, 10, 10, "X", 0, "swapper/0", NO_STACK);
    }).states(10, WaitFilter.ALL);
    assertEquals(3.0 * MS, s.byState(ThreadState.RUNNABLE), EPS);
    assertEquals(3.0 * MS, s.runnableOtherNs, EPS);
    assertEquals(0, s.runnableUnattributedNs, EPS);
  }
}
