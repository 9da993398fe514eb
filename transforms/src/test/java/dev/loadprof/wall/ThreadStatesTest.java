package dev.loadprof.wall;

import static dev.loadprof.wall.WallRun.MS;
import static dev.loadprof.wall.WallRun.NONE;
import static dev.loadprof.wall.WallRun.NO_STACK;
import static dev.loadprof.wall.WallRun.sample;
import static dev.loadprof.wall.WallRun.stack;
import static dev.loadprof.wall.WallRun.swap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.ThreadState;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thread states over the whole span, on hand-made event sequences: each case gives the events
 * and the thread-milliseconds per state, the load-0 milliseconds (attributed to the waits going
 * on), the unfinished ones and the runnable split.
 */
class ThreadStatesTest {
  private static final double EPS = 1e-6;

  /** Expected figures in ms: running, runnable, sleeping, disk, other, unknown. */
  record Expect(double[] byState, double spanMs, double load0Ms, double unfinishedMs,
      double ownMs, double otherMs) {}

  static Stream<Arguments> cases() {
    return Stream.of(
        // One thread sleeps 3-8, is woken at 8, runs at 9; sleeps again from 12 to the end (20).
        Arguments.of("sleep split at its wakeup, then unfinished", 10,
            (Consumer<BlockBuilder>) WallRun::sleepWokenAndSleepingAgain,
            new Expect(new double[] {6, 1, 13, 0, 0, 0}, 12, 6, 8, 0, 0)),
        // Preempted by another process 3-6 (interference), then in disk wait 9-15; exits at 17.
        Arguments.of("runnable while another process runs, then disk", 10,
            (Consumer<BlockBuilder>) b -> {
              sample(b, 0, 0, 10, 10, "a");
              sample(b, 1, 0, 10, 10, "a");
              sample(b, 2, 0, 10, 10, "a");
              swap(b, 3, 0, 10, 10, "R", 30, "hog", NO_STACK);
              sample(b, 4, 0, 30, 30, "hog");
              sample(b, 5, 0, 30, 30, "hog");
              swap(b, 6, 0, 30, 30, "R", 10, "a", NO_STACK);
              sample(b, 7, 0, 10, 10, "a");
              sample(b, 8, 0, 10, 10, "a");
              swap(b, 9, 0, 10, 10, "D", 0, "swapper/0", stack("io_schedule", "sync_file"));
              swap(b, 15, 0, 0, 0, "R", 10, "a", NO_STACK);
              sample(b, 16, 0, 10, 10, "a");
              swap(b, 17, 0, 10, 10, "X", 0, "swapper/0", NO_STACK);
            },
            new Expect(new double[] {8, 3, 0, 6, 0, 0}, 17, 9, 0, 0, 3)),
        // Two threads of one process take turns on one CPU: each waits for the other (own).
        Arguments.of("runnable while the process's own threads run", 10,
            (Consumer<BlockBuilder>) b -> {
              b.fork(0, 10, 11, 10, 10);
              sample(b, 0, 0, 10, 10, "a");
              sample(b, 1, 0, 10, 10, "a");
              sample(b, 2, 0, 10, 10, "a");
              swap(b, 3, 0, 10, 10, "R", 11, "a", NO_STACK);
              sample(b, 4, 0, 10, 11, "a");
              sample(b, 5, 0, 10, 11, "a");
              swap(b, 6, 0, 10, 11, "R", 10, "a", NO_STACK);
              sample(b, 7, 0, 10, 10, "a");
              sample(b, 8, 0, 10, 10, "a");
              swap(b, 9, 0, 10, 10, "S", 11, "a", stack("futex_wait", "wait_item"));
              sample(b, 10, 0, 10, 11, "a");
              sample(b, 11, 0, 10, 11, "a");
              swap(b, 12, 0, 10, 11, "S", 0, "swapper/0", stack("futex_wait", "wait_item"));
            },
            new Expect(new double[] {12, 6, 3, 0, 0, 0}, 12, 0, 3, 6, 0)),
        // The switch-in on CPU 1 is lost: the wait ends half an interval before the first
        // sample there (7.5 ms), as the run intervals say.
        Arguments.of("a lost switch-in ends the wait at the next sample", 10,
            (Consumer<BlockBuilder>) b -> {
              sample(b, 0, 0, 10, 10, "a");
              sample(b, 1, 0, 10, 10, "a");
              sample(b, 2, 0, 10, 10, "a");
              swap(b, 3, 0, 10, 10, "S", 0, "swapper/0", stack("pipe_read", "pipe_wait"));
              sample(b, 8, 1, 10, 10, "a");
              sample(b, 9, 1, 10, 10, "a");
              swap(b, 10, 1, 10, 10, "S", 0, "swapper/1", stack("pipe_read", "pipe_wait"));
              sample(b, 12, 0, 20, 20, "other");
            },
            new Expect(new double[] {5.5, 0, 6.5, 0, 0, 0}, 10, 4.5, 2, 0, 0)),
        // The same sleep with windows of 2 ms: the wait crosses windows and is stitched whole.
        Arguments.of("waits crossing windows", 10,
            (Consumer<BlockBuilder>) WallRun::sleepWokenAndSleepingAgain,
            new Expect(new double[] {6, 1, 13, 0, 0, 0}, 12, 6, 8, 0, 0)),
        // A per-process recording: OUT preempt is runnable, a plain OUT unknown.
        Arguments.of("per-thread switch records", 10,
            (Consumer<BlockBuilder>) b -> {
              b.contextSwitch(0, NONE, 10, 10, "a", true, false);
              b.contextSwitch(3 * MS, NONE, 10, 10, "a", false, true);
              b.contextSwitch(5 * MS, NONE, 10, 10, "a", true, false);
              b.contextSwitch(8 * MS, NONE, 10, 10, "a", false, false);
              b.contextSwitch(10 * MS, NONE, 10, 10, "a", true, false);
              b.contextSwitch(12 * MS, NONE, 10, 10, "a", false, true);
            },
            new Expect(new double[] {8, 2, 0, 0, 0, 2}, 12, 4, 0, 0, 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void threadStatesOfHandMadeRuns(String name, int pid, Consumer<BlockBuilder> events,
      Expect e) {
    ThreadStateSummary s = WallRun.of(windowOf(name), events)
        .states(pid, WaitFilter.ALL);
    for (ThreadState st : ThreadState.values()) {
      assertEquals(e.byState()[st.ordinal()], s.byState(st) / MS, EPS, st.label);
    }
    assertEquals(e.spanMs(), s.spanNs / (double) MS, EPS, "span");
    assertEquals(e.load0Ms(), s.load0Ns / (double) MS, EPS, "load 0");
    assertEquals(s.spanNs, s.onCpuRealNs + s.load0Ns, "on CPU + load 0 = span");
    assertEquals(e.unfinishedMs(), s.unfinishedNs / MS, EPS, "unfinished");
    assertEquals(e.ownMs(), s.runnableOwnNs / MS, EPS, "runnable by own threads");
    assertEquals(e.otherMs(), s.runnableOtherNs / MS, EPS, "runnable by other processes");
    double attributed = s.load0UnattributedNs;
    for (double ns : s.load0ByCause.values()) {
      attributed += ns;
    }
    assertEquals(s.load0Ns, attributed, 1, "every load-0 instant is attributed");
  }

  private static long windowOf(String name) {
    return name.startsWith("waits crossing") ? 2 : 10;
  }

  @Test
  void interferenceNamesTheProcessThatHeldTheCpu() {
    ThreadStateSummary s = run(1);
    assertEquals(Map.of(30, 3.0 * MS), s.runnableByPid);
  }

  @Test
  void loadZeroGoesToTheWaitsInProgressByStateAndStack() {
    ThreadStateSummary s = run(1);
    CallStack disk = new CallStack(stack("io_schedule", "sync_file"));
    assertEquals(6.0 * MS, s.load0ByCause.get(new ThreadStateSummary.Cause(ThreadState.DISK,
        disk)), EPS);
    assertEquals(6.0 * MS, s.waits.get(new ThreadStateSummary.Wait(10, ThreadState.DISK, disk)),
        EPS);
    assertTrue(s.hasStates);
    assertTrue(s.hasStacks);
  }

  @Test
  void loadZeroIsSplitEvenlyAmongTheThreadsWaiting() {
    // Two threads both asleep 3-9: each gets half of those 6 ms.
    ThreadStateSummary s = WallRun.of(10, b -> {
      b.fork(0, 10, 11, 10, 10);
      sample(b, 0, 0, 10, 10, "a");
      sample(b, 0, 1, 10, 11, "a");
      sample(b, 2, 0, 10, 10, "a");
      sample(b, 2, 1, 10, 11, "a");
      swap(b, 3, 0, 10, 10, "S", 0, "swapper/0", stack("doze"));
      swap(b, 3, 1, 10, 11, "D", 0, "swapper/1", stack("sync_file"));
      swap(b, 9, 0, 0, 0, "R", 10, "a", NO_STACK);
      swap(b, 9, 1, 0, 0, "R", 11, "a", NO_STACK);
      sample(b, 10, 0, 10, 10, "a");
      sample(b, 10, 1, 10, 11, "a");
    }).states(10, WaitFilter.ALL);
    double[] byState = s.load0ByState();
    assertEquals(3.0 * MS, byState[ThreadState.SLEEPING.ordinal()], EPS);
    assertEquals(3.0 * MS, byState[ThreadState.DISK.ordinal()], EPS);
  }

  @Test
  void tidAndTimeNarrowTheThreadTime() {
    WallRun r = WallRun.of(10, cases().toList().get(2).get()[2] instanceof Consumer<?> c
        ? castEvents(c) : null);
    ThreadStateSummary onlyTen = r.states(10, new WaitFilter(Set.of(10), null, true, null, 0,
        Integer.MAX_VALUE));
    assertEquals(6.0 * MS, onlyTen.byState(ThreadState.RUNNING), EPS);
    assertEquals(3.0 * MS, onlyTen.byState(ThreadState.RUNNABLE), EPS);
    ThreadStateSummary early = r.states(10, new WaitFilter(null, null, true,
        new long[] {0, 5 * MS}, 0, Integer.MAX_VALUE));
    // 0-5 ms: thread 10 runs 0-3 and waits 3-5; thread 11 runs 3-5.
    assertEquals(5.0 * MS, early.byState(ThreadState.RUNNING), EPS);
    assertEquals(2.0 * MS, early.byState(ThreadState.RUNNABLE), EPS);
    assertEquals(5.0 * MS, early.spanNs);
  }

  @Test
  void cpuWaitIsSplitByWhoHeldTheCpus() {
    // Thread 10 runnable 3-6 ms while another process holds the only CPU: a load-0 instant
    // whose whole length is lost to the other process.
    ThreadStateSummary hog = run(1, 1);
    assertEquals(3.0 * MS, hog.cpuWaitNs, EPS);
    assertEquals(0.0, hog.cpuWaitOnCpuNs, EPS);
    assertEquals(3.0 * MS, hog.cpuWaitOthersNs, EPS);
    assertEquals(0.0, hog.cpuWaitOthersOnCpuNs, EPS);
    // Two threads take turns on CPU 0 (3-9 ms: one runs, one is runnable): half of each
    // instant is CPU wait. On one CPU that is the process's own doing; on two, the second CPU
    // was free of the process, so the runnable thread waited for someone else.
    ThreadStateSummary own = run(2, 1);
    assertEquals(3.0 * MS, own.cpuWaitNs, EPS);
    assertEquals(3.0 * MS, own.cpuWaitOnCpuNs, EPS);
    assertEquals(0.0, own.cpuWaitOthersNs, EPS);
    ThreadStateSummary twoCpus = run(2, 2);
    assertEquals(3.0 * MS, twoCpus.cpuWaitOthersNs, EPS);
    assertEquals(3.0 * MS, twoCpus.cpuWaitOthersOnCpuNs, EPS);
    // A per-process recording does not see the CPUs: no interference figure.
    assertTrue(Double.isNaN(run(2, 0).cpuWaitOthersNs));
  }

  @Test
  void cpuWaitOfThreeRunnableOnTwoCpusWithOneRunning() {
    // CPU 0: thread 10 runs 0-10. CPU 1: thread 11 runs 0-1, 12 runs 1-2, then another
    // process holds CPU 1 from 2 to 6 while both are runnable (k=1, r=2: 2/3 of 4 ms is CPU
    // wait; one of them had a CPU free of the process: m=1, 1/2 of 4 ms is lost to the other
    // process). Thread 12 stays runnable to the end.
    ThreadStateSummary s = WallRun.of(10, b -> {
      b.fork(0, 10, 11, 10, 10);
      b.fork(0, 10, 12, 10, 10);
      sample(b, 0, 0, 10, 10, "a");
      sample(b, 0, 1, 10, 11, "a");
      swap(b, 1, 1, 10, 11, "R", 12, "a", NO_STACK);
      swap(b, 2, 1, 10, 12, "R", 30, "hog", NO_STACK);
      sample(b, 3, 1, 30, 30, "hog");
      swap(b, 6, 1, 30, 30, "R", 11, "a", NO_STACK);
      sample(b, 5, 0, 10, 10, "a");
      sample(b, 7, 1, 10, 11, "a");
      sample(b, 9, 0, 10, 10, "a");
      sample(b, 10, 0, 10, 10, "a");
      sample(b, 10, 1, 10, 11, "a");
    }).states(10, WaitFilter.ALL, 2);
    // Besides: 1-2 ms and from 6 ms to the end, two run and one is runnable (k=2, r=1, no CPU
    // free): 1/3 of it (the last run ends a fraction of a sample interval after 10 ms).
    assertEquals((4.0 * 2 / 3 + 1.0 / 3 + 4.0 / 3) * MS, s.cpuWaitNs, 0.1 * MS);
    assertEquals(2.0 * MS, s.cpuWaitOthersNs, EPS);
    assertEquals(2.0 * MS, s.cpuWaitOthersOnCpuNs, EPS);
  }

  @Test
  void aTraceWithoutStatesSaysSo() {
    ThreadStateSummary s = WallRun.of(10, b -> {
      sample(b, 0, 0, 10, 10, "a");
      swap(b, 3, 0, 10, 10, "", 0, "swapper/0", NO_STACK);
      swap(b, 5, 0, 0, 0, "", 10, "a", NO_STACK);
      sample(b, 6, 0, 10, 10, "a");
    }).states(10, WaitFilter.ALL);
    assertFalse(s.hasStates);
    assertFalse(s.hasStacks);
    assertEquals(2.0 * MS, s.byState(ThreadState.UNKNOWN), EPS);
  }

  @SuppressWarnings("unchecked")
  private static Consumer<BlockBuilder> castEvents(Consumer<?> c) {
    return (Consumer<BlockBuilder>) c;
  }

  private static ThreadStateSummary run(int index, int cpus) {
    Object[] args = cases().toList().get(index).get();
    return WallRun.of(10, castEvents((Consumer<?>) args[2])).states((Integer) args[1],
        WaitFilter.ALL, cpus);
  }

  private static ThreadStateSummary run(int index) {
    Object[] args = cases().toList().get(index).get();
    return WallRun.of(10, castEvents((Consumer<?>) args[2])).states((Integer) args[1],
        WaitFilter.ALL);
  }
}
