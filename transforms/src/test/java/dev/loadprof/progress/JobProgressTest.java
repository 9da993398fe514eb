package dev.loadprof.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.progress.JobProgress.Snapshot;
import dev.loadprof.progress.JobProgress.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Work done alongside an earlier stage is counted, and shown once that stage is over. */
class JobProgressTest {
  @AfterEach
  void forget() {
    JobProgress.reset();
  }

  @Test
  void windowsJoinedWhileReadingKeepTheReadingShown() {
    JobProgress.reset();
    JobProgress.addTotal(Stage.READING, 100);
    JobProgress.advance(Stage.READING, 40);
    JobProgress.expect(Stage.JOINING, 10);
    JobProgress.advanceAlongside(Stage.JOINING, 6);
    JobProgress.advanceText(250); // the 40 bytes read were compressed: 250 bytes of text
    assertEquals(new Snapshot(Stage.READING, 40, 100, 250), JobProgress.snapshot());
    JobProgress.advance(Stage.READING, 60);
    JobProgress.advance(Stage.JOINING, 0); // the reading is over
    assertEquals(new Snapshot(Stage.JOINING, 6, 10, 6), JobProgress.snapshot());
  }
}
