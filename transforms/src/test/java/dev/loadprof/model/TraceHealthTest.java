package dev.loadprof.model;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /**
   * The parse step adds while another thread may read (a progress or log line, a copy): the
   * reader got the live map, and walked it while the next fold changed it, or folded while the
   * writer's unlocked add changed the pending adds (ConcurrentModificationException either way).
   */
  @Test
  void aWriterAndReadersOnOtherThreadsAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
    try {
      for (int round = 0; round < 200; round++) {
        TraceHealth h = new TraceHealth();
        CyclicBarrier start = new CyclicBarrier(READERS + 1);
        Future<?> writer = pool.submit(() -> {
          start.await();
          for (int i = 0; i < 2_000; i++) {
            h.add("counter_" + (i % 500), 1);
            if (i % 100 == 0) {
              h.addMalformedExample("x:" + i + ": bad");
            }
          }
          return null;
        });
        List<Future<?>> readers = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
          readers.add(pool.submit(() -> {
            start.await();
            long seen = 0;
            while (!writer.isDone()) {
              for (Map.Entry<String, Long> e : h.counters().entrySet()) {
                seen += e.getValue();
              }
              seen += h.get("counter_7") + h.malformedExamples().size();
            }
            return seen;
          }));
        }
        writer.get();
        for (Future<?> r : readers) {
          r.get();
        }
        assertEquals(2_000L, h.counters().values().stream().mapToLong(Long::longValue).sum());
        assertEquals(20, h.malformedExamples().size());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void countersAreASnapshotThatNoCallerCanChange() {
    TraceHealth h = new TraceHealth();
    h.add("a", 1);
    Map<String, Long> before = h.counters();
    h.add("a", 1);
    h.add("b", 1);
    assertEquals(Map.of("a", 1L), before);
    assertThrows(UnsupportedOperationException.class, () -> before.put("c", 1L));
    assertThrows(UnsupportedOperationException.class, () -> h.malformedExamples().add("x"));
  }

  @Test
  void aFrozenHealthReadsTheSameAndRefusesAdds() {
    TraceHealth h = new TraceHealth();
    h.add("a", 2);
    h.addMalformedExample("f:1: bad");
    h.freeze();
    assertTrue(h.isFrozen());
    assertEquals(Map.of("a", 2L), h.counters());
    assertEquals(2, h.get("a"));
    assertEquals(List.of("f:1: bad"), h.malformedExamples());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> h.add("a", 1));
    assertThat(e.getMessage(), containsString("cannot add to a"));
    assertThrows(IllegalStateException.class, () -> h.addMalformedExample("f:2: bad"));
    h.add("a", 0); // nothing to add: no change, no failure
    TraceHealth copy = new TraceHealth();
    copy.addAll(h);
    copy.add("a", 1);
    assertEquals(3, copy.get("a"));
  }
}
