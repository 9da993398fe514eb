package dev.loadprof.wall;

import static dev.loadprof.wall.WallRun.MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.ThreadState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongToDoubleFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The thread-state lanes of report.html: small hand-made runs and waits bucketed, each case with
 * the lanes it must give (one character per bucket: the dominant state's ordinal, '.' for none;
 * 0 running, 1 runnable, 2 sleeping, 3 disk, 5 unknown).
 */
class StateTimelineTest {
  private static final int RUN = ThreadState.RUNNING.ordinal();
  private static final int RUNNABLE = ThreadState.RUNNABLE.ordinal();
  private static final int SLEEP = ThreadState.SLEEPING.ordinal();
  private static final int DISK = ThreadState.DISK.ordinal();
  private static final LongToDoubleFunction ALL_KEPT = t -> t;

  /** A piece: thread, [start, end) in ns, state ordinal, CPU. */
  record P(int tid, long start, long end, int state, int cpu) {}

  static P p(int tid, long start, long end, int state) {
    return new P(tid, start, end, state, 0);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a thread that sleeps, then runs", List.of(p(1, 0, 5, SLEEP),
            p(1, 5, 10, RUN)), 10, 64, 0L, 1L, List.of("1:2222200000")),
        // 10 ns in at most 4 buckets: 5 ns wide; a piece ending at a boundary stays left of it.
        Arguments.of("a piece ending on a bucket boundary", List.of(p(1, 0, 5, DISK),
            p(1, 5, 10, RUNNABLE)), 4, 64, 0L, 5L, List.of("1:31")),
        // Bucket [4, 6): 1 ns sleeping, 1 ns running: the tie goes to the lower ordinal.
        Arguments.of("a tie inside a bucket", List.of(p(1, 0, 5, SLEEP), p(1, 5, 10, RUN)), 5,
            64, 0L, 2L, List.of("1:22000")),
        // Bucket [0, 5): 3 ns runnable, 2 ns running; [5, 10): 4 ns disk, 1 running.
        Arguments.of("the state with the most time wins a bucket", List.of(p(1, 0, 2, RUN),
            p(1, 2, 5, RUNNABLE), p(1, 5, 9, DISK), p(1, 9, 10, RUN)), 2, 64, 0L, 5L,
            List.of("1:13")),
        // The axis starts at the first piece; a thread absent from a bucket shows nothing.
        Arguments.of("threads that do not overlap", List.of(p(7, 100, 104, RUN),
            p(8, 106, 110, SLEEP)), 10, 64, 100L, 1L, List.of("7:0000......", "8:......2222")),
        // Three threads of 10, 30 and 20 ns: two lanes, those with the most time, by tid.
        Arguments.of("the lane cap keeps the threads with the most time", List.of(
            p(3, 0, 10, RUN), p(4, 0, 30, SLEEP), p(5, 0, 20, DISK)), 3, 2, 0L, 10L,
            List.of("4:222", "5:33.")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void bucketsEachLaneByItsDominantState(String name, List<P> pieces, int maxBuckets,
      int maxLanes, long start, long width, List<String> expected) {
    StateTimeline l = StateTimeline.of(pieces(pieces), WaitFilter.ALL, ALL_KEPT, maxBuckets,
        maxLanes);
    assertEquals(start, l.startNs, "start");
    assertEquals(width, l.bucketNs, "bucket width");
    assertEquals(expected, render(l));
    assertEquals(pieces.stream().map(P::tid).distinct().count(), l.threads, "threads");
  }

  @Test
  void theLaneCapSaysHowManyThreadsWereLeftOut() {
    List<P> many = new ArrayList<>();
    for (int t = 1; t <= 70; t++) {
      many.add(p(t, 0, t, RUN));
    }
    StateTimeline l = StateTimeline.of(pieces(many), WaitFilter.ALL, ALL_KEPT, 1000, 64);
    assertEquals(64, l.lanes.size());
    assertEquals(70, l.threads);
    assertEquals(6, l.leftOut());
    assertEquals(7, l.lanes.get(0).tid(), "threads 1..6 have the least time");
  }

  @Test
  void bucketWidthsAreRoundAndFitTheMaximum() {
    assertEquals(1, StateTimeline.bucketWidth(1000, 1000));
    assertEquals(2, StateTimeline.bucketWidth(1001, 1000));
    assertEquals(5, StateTimeline.bucketWidth(10, 4));
    assertEquals(5000, StateTimeline.bucketWidth(2_500_000, 1000));
    assertEquals(5_000_000, StateTimeline.bucketWidth(3_000_000_000L, 1000));
    assertEquals(10, StateTimeline.bucketWidth(6000, 1000));
    // Spans near 2^63 ns: no overflow of the rounding up.
    assertEquals(10_000_000_000_000_000L, StateTimeline.bucketWidth(Long.MAX_VALUE, 1000));
    assertEquals(Long.MAX_VALUE, StateTimeline.bucketWidth(Long.MAX_VALUE, 1));
  }

  /**
   * A wait that ran to Long.MAX_VALUE (a CPU's carried thread ended with that sentinel as the
   * run's end, taken for the trace's end) broke analyze of a system-wide recording with
   * NegativeArraySizeException: -5526, n = -921 buckets. No pieces' times may fail the axis.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("impossibleTimes")
  void impossibleTimesStillGiveAnAxisOfAtMostMaxBuckets(String name, List<P> pieces,
      long start) {
    StateTimeline l = StateTimeline.of(pieces(pieces), WaitFilter.ALL, ALL_KEPT, 1000, 64);
    assertEquals(start, l.startNs, "start");
    assertTrue(l.buckets > 0 && l.buckets <= 1000, "buckets: " + l.buckets);
    assertTrue(l.bucketNs > 0, "bucket width: " + l.bucketNs);
    for (StateTimeline.Lane lane : l.lanes) {
      assertEquals(l.buckets, lane.states().length);
    }
  }

  static Stream<Arguments> impossibleTimes() {
    long t0 = 17_815_736_049_662L; // a monotonic-clock time of the report
    return Stream.of(
        Arguments.of("a wait to Long.MAX_VALUE", List.of(p(1, t0, t0 + 5 * MS, RUN),
            p(1, t0 + 5 * MS, Long.MAX_VALUE, SLEEP)), t0),
        // More than 2^63 ns: the axis keeps the latest Long.MAX_VALUE ns of it.
        Arguments.of("pieces from Long.MIN_VALUE to Long.MAX_VALUE", List.of(
            p(1, Long.MIN_VALUE, t0, SLEEP), p(1, t0, t0 + 5 * MS, RUN),
            p(2, t0, Long.MAX_VALUE, DISK)), 0L));
  }

  /** --tid, -C and --time narrow the lanes; the axis is clipped to the time ranges. */
  @Test
  void theFilterNarrowsLanesAndAxis() {
    ThreadStates.Pieces p = pieces(List.of(p(1, 0, 10, RUN), new P(2, 0, 10, SLEEP, 1)));
    StateTimeline onlyTwo = StateTimeline.of(p, new WaitFilter(Set.of(2), null, true, null, 0,
        Integer.MAX_VALUE), ALL_KEPT, 10, 64);
    assertEquals(List.of("2:2222222222"), render(onlyTwo));
    StateTimeline cpu0 = StateTimeline.of(p, new WaitFilter(null, Set.of(0), true, null, 0,
        Integer.MAX_VALUE), ALL_KEPT, 10, 64);
    assertEquals(List.of("1:0000000000"), render(cpu0));
    // --time 2,6: the kept instants are those in [2, 6), as Sweep's H says.
    LongToDoubleFunction kept = t -> Math.max(0, Math.min(t, 6) - 2);
    StateTimeline mid = StateTimeline.of(p, new WaitFilter(null, null, true, new long[] {2, 6}, 0,
        Integer.MAX_VALUE), kept, 4, 64);
    assertEquals(2, mid.startNs);
    assertEquals(List.of("1:0000", "2:2222"), render(mid));
    assertArrayEquals(new double[] {4, 0, 0, 0, 0, 0}, mid.lanes.get(0).byStateNs());
    assertNull(StateTimeline.of(p, new WaitFilter(Set.of(3), null, true, null, 0,
        Integer.MAX_VALUE), ALL_KEPT, 10, 64), "no thread kept: no lanes");
  }

  /**
   * Through the whole replay: a thread runs 0-3 ms, sleeps 3-8 (woken at 8), is runnable 8-9,
   * runs 9-12 and sleeps to the end (20 ms); the lanes' per-state sums are the summary's, with
   * and without a load filter.
   */
  @Test
  void lanesOfAReplayedRunAddUpToItsThreadStates() {
    WallRun run = WallRun.of(10, WallRun::sleepWokenAndSleepingAgain);
    ProcessAccumulator acc = run.processes.get(10);
    for (WaitFilter f : List.of(WaitFilter.ALL,
        new WaitFilter(null, null, true, null, 0, 0))) { // --load 0: the waits only
      ThreadStateSummary s = run.states(10, f);
      StateTimeline l = StateTimeline.compute(acc.threads, acc.spanStartNs, acc.spanEndNs,
          acc.threads.traceEndNs, f);
      assertEquals(1, l.lanes.size());
      assertArrayEquals(s.byStateNs, l.lanes.get(0).byStateNs(), 1e-3);
    }
    StateTimeline l = StateTimeline.compute(acc.threads, acc.spanStartNs, acc.spanEndNs,
        acc.threads.traceEndNs, WaitFilter.ALL);
    assertEquals(20_000, l.bucketNs, "20 ms in 1000 buckets");
    byte[] states = l.lanes.get(0).states();
    assertEquals(RUN, states[at(l, 1.5)]);
    assertEquals(SLEEP, states[at(l, 5)]);
    assertEquals(RUNNABLE, states[at(l, 8.5)]);
    assertEquals(RUN, states[at(l, 10)]);
    assertEquals(SLEEP, states[at(l, 19.9)]);
  }

  /**
   * The same through blocks and the replay: CPU 0's last thread is carried for 10 s without a
   * record and ended as at the trace's end, in the window where process 20's thread falls asleep
   * for good. That window's end was Long.MAX_VALUE, and so was the end of the sleep.
   */
  @Test
  void aCpuSilentForTenSecondsLeavesTheWaitsEndingAtTheTrace() {
    assertSleepEndsAtTheTrace(block -> { });
  }

  /** Blocks archived before the fix still hold that run end: it is not taken for an instant. */
  @Test
  void archivedBlocksEndingACarriedThreadAtLongMaxValueToo() {
    assertSleepEndsAtTheTrace(block -> {
      if (block.cpuTail && block.window == 100) {
        block.runEndNs = Long.MAX_VALUE;
      }
    });
  }

  private static void assertSleepEndsAtTheTrace(Consumer<EventBlock> asRead) {
    WallRun run = WallRun.of(100, b -> {
      WallRun.sample(b, 1, 0, 30, 30, "hog"); // then CPU 0 records nothing until 12 s
      for (int ms = 50; ms <= 12_500; ms += 50) {
        if (ms < 10_050) {
          WallRun.sample(b, ms, 1, 20, 20, "sleeper");
        } else if (ms == 10_050) {
          WallRun.swap(b, ms, 1, 20, 20, "S", 21, "keeper", WallRun.NO_STACK);
        } else {
          WallRun.sample(b, ms, 1, 21, 21, "keeper");
        }
        if (ms == 12_000) {
          WallRun.sample(b, ms + 0.01, 0, 40, 40, "late");
        }
      }
    }, asRead);
    long traceEnd = 12_500 * MS; // the last record, as the analysis passes it
    ProcessAccumulator acc = run.processes.get(20);
    assertTrue(acc.threads.traceEndNs <= traceEnd, "marks' end " + acc.threads.traceEndNs);
    ThreadStateSummary s = ThreadStates.compute(acc.threads, acc.spanStartNs, acc.spanEndNs,
        traceEnd, WaitFilter.ALL);
    assertEquals(2_450 * MS, s.byStateNs[SLEEP], 1e-3, "asleep 10.05 s - 12.5 s");
    StateTimeline l = StateTimeline.compute(acc.threads, acc.spanStartNs, acc.spanEndNs,
        traceEnd, WaitFilter.ALL);
    assertEquals(s.byStateNs[SLEEP], l.lanes.get(0).byStateNs()[SLEEP], 1e-3);
  }

  private static int at(StateTimeline l, double ms) {
    return (int) (((long) (ms * MS) - l.startNs) / l.bucketNs);
  }

  private static ThreadStates.Pieces pieces(List<P> list) {
    ThreadStates.Pieces p = new ThreadStates.Pieces();
    for (P x : list) {
      p.add(x.tid(), x.start(), x.end(), x.state(), -1, -1, x.cpu(), false);
    }
    return p;
  }

  private static List<String> render(StateTimeline l) {
    List<String> out = new ArrayList<>();
    for (StateTimeline.Lane lane : l.lanes) {
      StringBuilder sb = new StringBuilder(lane.tid() + ":");
      for (byte b : lane.states()) {
        sb.append(b == StateTimeline.NONE ? '.' : (char) ('0' + b));
      }
      out.add(sb.toString());
    }
    return out;
  }
}
