package dev.loadprof.archive.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.ArchiveCorruptException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Work done ahead on a few threads is handed on in the items' order, never more than the bound
 * ahead of its use, and a failure surfaces at its item's turn as the work threw it.
 */
class OrderedPrefetchTest {
  private static final List<Integer> ITEMS = IntStream.range(0, 200).boxed().toList();

  private static void sleepMs(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void resultsComeInTheItemsOrderWhateverTheWorkTakes() {
    List<Integer> seen = new ArrayList<>();
    OrderedPrefetch.forEach(ITEMS, 8, 16, i -> {
      sleepMs((i * 7919) % 5); // later items often done first
      return i * 2;
    }, seen::add);
    assertEquals(ITEMS.stream().map(i -> i * 2).toList(), seen);
  }

  @Test
  void noMoreThanTheBoundIsDoneOrUnderWayAheadOfItsUse() {
    AtomicInteger started = new AtomicInteger();
    AtomicInteger used = new AtomicInteger();
    AtomicInteger mostAhead = new AtomicInteger();
    OrderedPrefetch.forEach(ITEMS, 4, 6, i -> {
      int ahead = started.incrementAndGet() - used.get();
      mostAhead.accumulateAndGet(ahead, Math::max);
      return i;
    }, i -> {
      sleepMs(1); // a slow consumer: the workers would run far ahead if unbounded
      used.incrementAndGet();
    });
    assertEquals(ITEMS.size(), used.get());
    assertTrue(mostAhead.get() <= 6, "ahead: " + mostAhead.get());
    assertTrue(mostAhead.get() >= 2, "never ahead: " + mostAhead.get());
  }

  /**
   * Light items (weight 0) do not count against the bound: among many light items, several
   * heavy ones are under way at once (a nightly's few runs whose blocks are read, among
   * thousands whose figures are stored), never more than the bound ahead of their use, nor more
   * than {@code LIGHT_PER_AHEAD} times the bound in all; the order is kept.
   */
  @Test
  void lightItemsLetSeveralHeavyOnesBeUnderWayAtOnce() {
    List<Integer> items = IntStream.range(0, 900).boxed().toList();
    AtomicInteger heavyStarted = new AtomicInteger();
    AtomicInteger heavyUsed = new AtomicInteger();
    AtomicInteger heavyInFlight = new AtomicInteger();
    AtomicInteger mostHeavyInFlight = new AtomicInteger();
    AtomicInteger mostHeavyAhead = new AtomicInteger();
    AtomicInteger started = new AtomicInteger();
    AtomicInteger used = new AtomicInteger();
    AtomicInteger mostAhead = new AtomicInteger();
    List<Integer> seen = new ArrayList<>();
    OrderedPrefetch.forEach(items, 8, 4, i -> i % 30 == 0 ? 1 : 0, i -> {
      mostAhead.accumulateAndGet(started.incrementAndGet() - used.get(), Math::max);
      if (i % 30 == 0) {
        mostHeavyAhead.accumulateAndGet(heavyStarted.incrementAndGet() - heavyUsed.get(),
            Math::max);
        mostHeavyInFlight.accumulateAndGet(heavyInFlight.incrementAndGet(), Math::max);
        sleepMs(20); // a run's block files, waiting on the store
        heavyInFlight.decrementAndGet();
      }
      return i;
    }, i -> {
      seen.add(i);
      used.incrementAndGet();
      if (i % 30 == 0) {
        heavyUsed.incrementAndGet();
      }
    });
    assertEquals(items, seen);
    assertTrue(mostHeavyInFlight.get() >= 2, "heavy at once: " + mostHeavyInFlight.get());
    assertTrue(mostHeavyAhead.get() <= 4, "heavy ahead: " + mostHeavyAhead.get());
    assertTrue(mostAhead.get() <= 4 * OrderedPrefetch.LIGHT_PER_AHEAD, "ahead: "
        + mostAhead.get());
  }

  /** As one after the other: the runs before the damaged one are used, none after it. */
  @Test
  void aRunsFailureIsThrownAtItsTurnAsTheWorkThrewIt() {
    ArchiveCorruptException damage = new ArchiveCorruptException("runs/r57.avro",
        "unreadable manifest (bad)", null);
    List<Integer> seen = new ArrayList<>();
    ArchiveCorruptException thrown = assertThrows(ArchiveCorruptException.class,
        () -> OrderedPrefetch.forEach(ITEMS, 8, 16, i -> {
          if (i == 57 || i == 90) {
            throw i == 57 ? damage : new IllegalStateException("later");
          }
          return i;
        }, seen::add));
    assertSame(damage, thrown);
    assertEquals(ITEMS.subList(0, 57), seen);
  }

  @Test
  void theUsersOwnExceptionStopsTheRest() {
    List<Integer> seen = new ArrayList<>();
    IOException e = assertThrows(IOException.class, () -> OrderedPrefetch.forEach(ITEMS, 3, 5,
        i -> i, i -> {
          if (i == 10) {
            throw new IOException("windows of run 10");
          }
          seen.add(i);
        }));
    assertEquals("windows of run 10", e.getMessage());
    assertEquals(ITEMS.subList(0, 10), seen);
  }

  @Test
  void oneItemOrOneThreadIsDoneOnTheCallingThread() {
    Thread caller = Thread.currentThread();
    OrderedPrefetch.forEach(List.of(1), 8, 16, i -> Thread.currentThread(),
        t -> assertSame(caller, t));
    List<Thread> threads = new ArrayList<>();
    OrderedPrefetch.forEach(ITEMS.subList(0, 5), 1, 4, i -> Thread.currentThread(), threads::add);
    threads.forEach(t -> assertSame(caller, t));
  }
}
