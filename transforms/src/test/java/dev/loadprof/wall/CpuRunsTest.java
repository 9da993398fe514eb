package dev.loadprof.wall;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.model.Intervals;
import dev.loadprof.model.TraceEventSink;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The look at who held a CPU over a span starts at the first run that can overlap it: it must
 * find what a look over every run of the window finds, wherever the span falls.
 */
class CpuRunsTest {
  @Test
  void theLookFromTheFirstRunThatCanOverlapFindsWhatALookOverAllRunsFinds() {
    Random rnd = new Random(11);
    for (int round = 0; round < 300; round++) {
      Intervals iv = new Intervals();
      long t = rnd.nextInt(20);
      int runs = rnd.nextInt(30);
      for (int k = 0; k < runs; k++) {
        t += rnd.nextInt(3) == 0 ? rnd.nextInt(15) : 0; // the CPU idle between some runs
        long end = t + 1 + rnd.nextInt(20);
        int pid = new int[] {10, 30, 40, TraceEventSink.UNKNOWN_ID}[rnd.nextInt(4)];
        iv.add(t, end, pid == 10 ? 10 + rnd.nextInt(3) : pid + 1, pid);
        t = end;
      }
      WindowThreads.CpuRuns cpu = new WindowThreads.CpuRuns(0, iv);
      for (int q = 0; q < 50; q++) {
        long from = rnd.nextInt((int) t + 40) - 20;
        long to = from + rnd.nextInt(60);
        int tid = 10 + rnd.nextInt(3);
        assertEquals(lookOverAll(iv, tid, 10, from, to), cpu.occupancy(tid, 10, from, to),
            "[" + from + ", " + to + ") in " + iv);
      }
    }
  }

  /** Who held the CPU over [from, to) besides thread tid, from every run of the window. */
  private static WindowThreads.Occupancy lookOverAll(Intervals iv, int tid, int pid, long from,
      long to) {
    long own = 0;
    Map<Integer, Long> others = new HashMap<>();
    for (int j = 0; j < iv.count; j++) {
      long overlap = Math.min(to, iv.end[j]) - Math.max(from, iv.start[j]);
      if (overlap > 0 && iv.tid[j] != tid) {
        if (iv.pid[j] == pid) {
          own += overlap;
        } else {
          others.merge(iv.pid[j], overlap, Long::sum);
        }
      }
    }
    return WindowThreads.Occupancy.of(own, others);
  }
}
