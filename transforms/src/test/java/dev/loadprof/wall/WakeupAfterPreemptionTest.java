package dev.loadprof.wall;

import static dev.loadprof.wall.WallRun.MS;
import static dev.loadprof.wall.WallRun.NO_STACK;
import static dev.loadprof.wall.WallRun.dozes;
import static dev.loadprof.wall.WallRun.preemptedByHog;
import static dev.loadprof.wall.WallRun.sample;
import static dev.loadprof.wall.WallRun.stack;
import static dev.loadprof.wall.WallRun.swap;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.block.BlockBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Some traces record a wakeup before every switch-in, also for a thread that was preempted and
 * is runnable already. Such a wakeup changes nothing: the window that also holds the
 * preemption does not keep it as a mark, and the thread states are those of the same run
 * without it. (In a later window than the preemption it is kept: there it starts that window's
 * look at who held the CPU.)
 */
class WakeupAfterPreemptionTest {

  /** Thread 10 is preempted by a hog 3-6 (woken at 5 anyway), sleeps 9-12, woken at 11. */
  private static void run(BlockBuilder b, boolean redundantWakeup) {
    preemptedByHog(b, new double[] {0, 1, 2}, 3, new double[] {4, 5},
        redundantWakeup ? 5 : Double.NaN, 6);
    dozes(b, new double[] {7, 8}, 9, 11, 12);
    sample(b, 13, 0, 10, 10, "a");
    swap(b, 14, 0, 10, 10, "X", 0, "swapper/0", NO_STACK);
  }

  @ParameterizedTest
  @ValueSource(longs = {100, 5})
  void aWakeupOfAPreemptedThreadChangesNothing(long windowMs) {
    WallRun with = WallRun.of(windowMs, b -> run(b, true));
    WallRun without = WallRun.of(windowMs, b -> run(b, false));
    ThreadStateSummary a = with.states(10, WaitFilter.ALL, 2);
    ThreadStateSummary b = without.states(10, WaitFilter.ALL, 2);
    assertArrayEquals(b.byStateNs, a.byStateNs, 1e-6);
    assertEquals(b.runnableOwnNs, a.runnableOwnNs, 1e-6);
    assertEquals(b.runnableOtherNs, a.runnableOtherNs, 1e-6);
    assertEquals(b.runnableByPid, a.runnableByPid);
    assertEquals(b.load0ByCause, a.load0ByCause);
    assertEquals(3 * MS, a.byStateNs[ThreadStateSummary.RUNNABLE_ORDINAL] - 1 * MS, 1e-6,
        "runnable 3-6 (preempted) and 11-12 (woken)");
    if (windowMs == 100) {
      // One window holds the preemption and the wakeup: the wakeup is not kept.
      ThreadMarks marks = with.processes.get(10).threads;
      long wakeups = java.util.stream.IntStream.range(0, marks.count)
          .filter(i -> marks.kind[i] == ThreadMarks.WAKE).count();
      assertEquals(1, wakeups, "only the wakeup from the sleep is a mark");
      long outs = java.util.stream.IntStream.range(0, marks.count)
          .filter(i -> marks.kind[i] == ThreadMarks.OUT).count();
      assertEquals(0, outs, "each switch-out is attached to the run it ended");
      // Kept as a mark, it would change nothing either.
      marks.addWake(10, 5 * MS, 30);
      ThreadStateSummary kept = with.states(10, WaitFilter.ALL, 2);
      assertArrayEquals(a.byStateNs, kept.byStateNs, 1e-6);
      assertEquals(a.runnableOtherNs, kept.runnableOtherNs, 1e-6);
      assertEquals(a.load0ByCause, kept.load0ByCause);
    }
  }
}
