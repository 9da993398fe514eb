package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jobs in two JVMs on one --out, 20 rounds: started together (even rounds) or 30 to 570 ms
 * apart, across the 400 ms the first holds it, so that the second comes while the first starts,
 * holds, or deletes its lock file ({@link OutputLockTest#twoJobsOnOneOut}). An IT: 35-50 s.
 */
class OutputLockIT {
  static final int ROUNDS = 20;

  @TempDir Path dir;

  @Test
  void twoJvmsOnOneOutNeverHoldItTogetherAtAnyTiming() throws Exception {
    int refused = OutputLockTest.twoJobsOnOneOut(dir, ROUNDS, 400,
        round -> round % 2 == 0 ? 0 : 30L * round);
    System.out.println("OutputLockIT: " + refused + " of " + ROUNDS + " rounds refused a job");
    assertTrue(refused >= ROUNDS / 4, "the rounds started together overlapped: " + refused);
  }
}
