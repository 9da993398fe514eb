package dev.loadprof.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loadprof.progress.JobProgress.Snapshot;
import dev.loadprof.progress.JobProgress.Stage;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Work done alongside an earlier stage is counted, and shown once that stage is over; each
 * stage keeps the times of its first and latest work, and its figures once it is over.
 */
class JobProgressTest {
  private final AtomicLong clock = new AtomicLong(-5_000); // nanoTime may be below zero

  @AfterEach
  void forget() {
    JobProgress.reset();
  }

  @Test
  void windowsJoinedWhileReadingKeepTheReadingShown() {
    JobProgress.reset(clock::get);
    assertNull(JobProgress.snapshot());
    JobProgress.addTotal(Stage.READING, 100);
    clock.addAndGet(10);
    JobProgress.advance(Stage.READING, 40);
    JobProgress.expect(Stage.JOINING, 10);
    assertNull(JobProgress.snapshot(Stage.JOINING), "expected, not begun");
    clock.addAndGet(10);
    JobProgress.advanceAlongside(Stage.JOINING, 6);
    JobProgress.advanceText(250); // the 40 bytes read were compressed: 250 bytes of text
    assertEquals(new Snapshot(Stage.READING, 40, 100, 250, -5_000, -4_990),
        JobProgress.snapshot());
    clock.addAndGet(10);
    JobProgress.advance(Stage.READING, 60);
    clock.addAndGet(10);
    JobProgress.advance(Stage.JOINING, 0); // the reading is over
    assertEquals(new Snapshot(Stage.JOINING, 6, 10, 6, -4_980, -4_960), JobProgress.snapshot());
    assertEquals(new Snapshot(Stage.READING, 100, 100, 250, -5_000, -4_970),
        JobProgress.snapshot(Stage.READING), "the reading as it ended");
  }
}
