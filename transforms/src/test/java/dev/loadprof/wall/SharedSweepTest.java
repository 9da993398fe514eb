package dev.loadprof.wall;

import static dev.loadprof.wall.WallRun.MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The replay's shortcuts give what the plain way gives: the state timeline drawn over the
 * summary's sweep is the one drawn over a sweep of its own, whatever the filter, and the sweep's
 * search from a hint finds the boundary a plain binary search finds.
 */
class SharedSweepTest {
  private static final Frame[][] STACKS = {WallRun.stack("do_nanosleep", "doze"),
      WallRun.stack("futex_wait", "wait_item"), WallRun.NO_STACK};
  private static final String[] STATES = {"S", "R", "D", "R+"};

  @Test
  void theTimelineOverTheSummarysSweepIsTheOneOverItsOwn() {
    for (long seed = 1; seed <= 5; seed++) {
      WallRun run = WallRun.of(10, randomRun(new Random(seed)));
      List<WaitFilter> filters = List.of(WaitFilter.ALL,
          new WaitFilter(null, null, true, null, 0, 0),
          new WaitFilter(null, null, true, null, 1, 2),
          new WaitFilter(null, null, true, new long[] {5 * MS, 17 * MS, 30 * MS, 44 * MS}, 0,
              Integer.MAX_VALUE),
          new WaitFilter(Set.of(10, 13), null, true, null, 0, 1),
          new WaitFilter(null, Set.of(1), true, new long[] {3 * MS, 50 * MS}, 0,
              Integer.MAX_VALUE));
      for (int pid : List.of(10, 30)) {
        ProcessAccumulator acc = run.processes.get(pid);
        for (WaitFilter f : filters) {
          String what = "seed " + seed + ", pid " + pid + ", filter " + f;
          StateTimeline own = StateTimeline.compute(acc.threads, acc.spanStartNs,
              acc.spanEndNs, acc.threads.traceEndNs, f);
          ThreadStates.Replayed r = ThreadStates.replay(acc.threads, acc.threads.traceEndNs);
          ThreadStates.compute(r, acc.spanStartNs, acc.spanEndNs, f, 2);
          assertNotNull(r.sweepFor(copy(f)), "a filter equal in content shares the sweep");
          StateTimeline shared = StateTimeline.compute(r, acc.spanStartNs, acc.spanEndNs, f);
          if (f == WaitFilter.ALL) {
            assertNotNull(own, what);
            assertEquals(pid == 10 ? 5 : 2, own.lanes.size(), what);
          }
          assertSame(own, shared, what);
        }
        ThreadStates.Replayed r = ThreadStates.replay(acc.threads, acc.threads.traceEndNs);
        ThreadStates.compute(r, acc.spanStartNs, acc.spanEndNs, WaitFilter.ALL, 2);
        assertNull(r.sweepFor(filters.get(1)), "another --load keeps other instants");
        assertNull(r.sweepFor(filters.get(3)), "another --time keeps other instants");
      }
    }
  }

  @Test
  void theSearchFromAHintFindsTheLastBoundaryAtOrBeforeAnInstant() {
    Random rnd = new Random(7);
    for (int round = 0; round < 200; round++) {
      ThreadStates.Pieces p = new ThreadStates.Pieces();
      TreeSet<Long> edges = new TreeSet<>();
      int pieces = rnd.nextInt(40);
      for (int i = 0; i < pieces; i++) {
        long a = rnd.nextInt(1000);
        long b = a + 1 + rnd.nextInt(50);
        p.add(1 + rnd.nextInt(3), a, b, rnd.nextInt(6), -1, -1, 0, false);
        edges.add(a);
        edges.add(b);
      }
      long spanStart = rnd.nextInt(1000);
      long spanEnd = spanStart + rnd.nextInt(500);
      edges.add(spanStart);
      edges.add(spanEnd);
      long[] at = edges.stream().mapToLong(Long::longValue).toArray();
      Sweep s = new Sweep(p, spanStart, spanEnd, WaitFilter.ALL, new ThreadStateSummary(), 0);
      for (int q = 0; q < 100; q++) {
        long t = rnd.nextInt(1100) - 50;
        int hint = rnd.nextInt(at.length + 10) - 5;
        int k = Arrays.binarySearch(at, t);
        int expected = k >= 0 ? k : -k - 2;
        assertEquals(expected, s.floor(t, hint), "t " + t + ", hint " + hint + " in "
            + Arrays.toString(at));
      }
    }
  }

  private static WaitFilter copy(WaitFilter f) {
    return new WaitFilter(f.tids(), f.cpus(), f.cpuLanes(),
        f.timeRanges() == null ? null : f.timeRanges().clone(), f.minLoad(), f.maxLoad());
  }

  private static void assertSame(StateTimeline expected, StateTimeline actual, String what) {
    if (expected == null) {
      assertNull(actual, what);
      return;
    }
    assertEquals(expected.startNs, actual.startNs, what);
    assertEquals(expected.bucketNs, actual.bucketNs, what);
    assertEquals(expected.buckets, actual.buckets, what);
    assertEquals(expected.threads, actual.threads, what);
    assertEquals(expected.lanes.size(), actual.lanes.size(), what);
    for (int l = 0; l < expected.lanes.size(); l++) {
      StateTimeline.Lane e = expected.lanes.get(l);
      StateTimeline.Lane a = actual.lanes.get(l);
      assertEquals(e.tid(), a.tid(), what);
      assertArrayEquals(e.states(), a.states(), what + ", lane " + e.tid());
      assertArrayEquals(e.byStateNs(), a.byStateNs(), 0.0, what + ", lane " + e.tid());
    }
  }

  /**
   * Two CPUs, each with its own threads (process 10: threads 10-12 on CPU 0 and 13-14 on CPU 1;
   * process 30: thread 31 on CPU 0, 32 on CPU 1), switching among them and the idle task for
   * 60 ms, in random states and stacks, most switch-ins after a wakeup.
   */
  private static Consumer<BlockBuilder> randomRun(Random rnd) {
    List<Object[]> events = new ArrayList<>(); // {time ns, order, action}
    int[][] threadsOf = {{10, 11, 12, 31}, {13, 14, 32}};
    for (int cpu = 0; cpu < 2; cpu++) {
      int c = cpu;
      int current = 0;
      double t = rnd.nextDouble();
      while (t < 60) {
        double until = t + 0.3 + 3 * rnd.nextDouble();
        int tid = current;
        if (tid != 0) {
          for (double s = t + 0.1; s < until; s += 0.25) {
            double at = s;
            add(events, at, b -> WallRun.sample(b, at, c, pidOf(tid), tid, "p"));
          }
        }
        int next = rnd.nextInt(4) == 0 ? 0 : threadsOf[c][rnd.nextInt(threadsOf[c].length)];
        if (next == tid) {
          next = 0;
        }
        int n = next;
        if (n != 0 && rnd.nextInt(4) != 0) {
          double wake = until - 0.05 - 0.5 * rnd.nextDouble();
          add(events, wake, b -> b.schedWakeup((long) (wake * MS), c, 0, 0, n, "p", c));
        }
        String state = tid == 0 ? "R" : STATES[rnd.nextInt(STATES.length)];
        Frame[] where = STACKS[rnd.nextInt(STACKS.length)];
        double at = until;
        add(events, at, b -> WallRun.swap(b, at, c, pidOf(tid), tid, state, n,
            n == 0 ? "swapper/" + c : "p", where));
        current = next;
        t = until;
      }
    }
    events.sort(Comparator.comparingLong((Object[] e) -> (long) e[0])
        .thenComparingLong(e -> (long) e[1]));
    return b -> {
      for (Object[] e : events) {
        @SuppressWarnings("unchecked")
        Consumer<BlockBuilder> action = (Consumer<BlockBuilder>) e[2];
        action.accept(b);
      }
    };
  }

  private static void add(List<Object[]> events, double ms, Consumer<BlockBuilder> action) {
    events.add(new Object[] {(long) (ms * MS), (long) events.size(), action});
  }

  private static int pidOf(int tid) {
    return tid == 0 ? 0 : tid >= 30 ? 30 : 10;
  }
}
