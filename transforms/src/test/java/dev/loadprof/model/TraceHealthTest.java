package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TraceHealthTest {
  private static final int COUNTERS = 40;
  private static final int READERS = 4;

  @Test
  void addsAreFoldedOnceAndReadTheSame() {
    TraceHealth h = new TraceHealth();
    h.add("a", 2);
    h.add("b", 0); // an add of 0 keeps nothing
    h.increment("a");
    assertEquals(3, h.get("a"));
    assertEquals(Map.of("a", 3L), h.counters());
    h.add("a", -3);
    assertEquals(Map.of("a", 0L), h.counters(), "a counter added to stays, at 0");
  }

  /**
   * Reports read a run's health on several threads at once, and the first read folds the pending
   * adds: without the lock, two readers folded the same adds twice or one walked the map while
   * another changed it (ConcurrentModificationException).
   */
  @Test
  void readersOnManyThreadsSeeEveryAddOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(READERS);
    try {
      for (int round = 0; round < 2_000; round++) {
        TraceHealth h = new TraceHealth();
        for (int c = 0; c < COUNTERS; c++) {
          h.add("counter_" + c, c + 1);
        }
        CyclicBarrier start = new CyclicBarrier(READERS);
        List<Future<Long>> sums = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
          boolean byName = t % 2 == 1;
          sums.add(pool.submit(() -> {
            start.await();
            long sum = 0;
            if (byName) {
              for (int c = 0; c < COUNTERS; c++) {
                sum += h.get("counter_" + c);
              }
            } else {
              for (long v : h.counters().values()) {
                sum += v;
              }
            }
            return sum;
          }));
        }
        long expected = (long) COUNTERS * (COUNTERS + 1) / 2;
        for (Future<Long> s : sums) {
          assertEquals(expected, s.get(), "round " + round);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
