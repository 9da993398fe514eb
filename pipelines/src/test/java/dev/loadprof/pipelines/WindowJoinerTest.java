package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.EventBlock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The joiner's thread owns what it joins until it has ended: closing the joiner (after a failed
 * read, or at the end of a job) waits for the window being joined, and drops those not begun.
 */
class WindowJoinerTest {
  private static EventBlock block(long window) {
    EventBlock b = new EventBlock();
    b.runId = "run";
    b.window = window;
    return b;
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException e) {
        // go on waiting
      }
    }
  }

  @Test
  void closeWaitsForTheWindowBeingJoined() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean joined = new AtomicBoolean();
    AtomicBoolean joinedWhenCloseReturned = new AtomicBoolean();
    WindowJoiner joiner = new WindowJoiner(SampleSelection.ALL, (blocks, run) -> {
      started.countDown();
      awaitUninterruptibly(release); // as a join's CPU work, which an interrupt does not stop
      joined.set(true);
    });
    WindowJoiner.Trace trace = joiner.trace();
    trace.add(block(0));
    trace.completeBefore(1);
    assertTrue(started.await(30, TimeUnit.SECONDS), "the window was never joined");
    Thread closer = new Thread(() -> {
      joiner.close();
      joinedWhenCloseReturned.set(joined.get());
    });
    closer.start();
    closer.join(300); // long enough for a close that does not wait to have returned
    release.countDown();
    closer.join(30_000);
    assertFalse(closer.isAlive(), "close never returned");
    assertTrue(joinedWhenCloseReturned.get(), "close returned while the window was joined");
  }

  @Test
  void closeDropsTheWindowsNotBegun() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger joins = new AtomicInteger();
    WindowJoiner joiner = new WindowJoiner(SampleSelection.ALL, (blocks, run) -> {
      joins.incrementAndGet();
      started.countDown();
      awaitUninterruptibly(release);
    });
    WindowJoiner.Trace trace = joiner.trace();
    for (long w = 0; w < 3; w++) {
      trace.add(block(w));
    }
    trace.completeBefore(3); // three windows queued
    assertTrue(started.await(30, TimeUnit.SECONDS), "the first window was never joined");
    Thread closer = new Thread(joiner::close);
    closer.start();
    while (closer.isAlive() && closer.getState() != Thread.State.TIMED_WAITING) {
      Thread.sleep(1); // until close has begun (and waits for the first window)
    }
    release.countDown();
    closer.join(30_000);
    assertFalse(closer.isAlive(), "close never returned");
    assertEquals(1, joins.get(), "windows joined after the close");
  }

  @Test
  void theResultsWaitForEveryWindow() throws Exception {
    AtomicInteger joins = new AtomicInteger();
    try (WindowJoiner joiner = new WindowJoiner(SampleSelection.ALL, (blocks, run) -> {
      assertEquals(1, blocks.size());
      joins.incrementAndGet();
    })) {
      WindowJoiner.Trace trace = joiner.trace();
      for (long w = 0; w < 10; w++) {
        trace.add(block(w));
      }
      trace.completeBefore(5);
      trace.finish(null);
      joiner.processes();
      assertEquals(10, joins.get());
    }
  }
}
