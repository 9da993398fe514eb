package dev.loadprof.cli;

import java.time.Duration;

/**
 * Lets the runner finish closing before the process exits. Embedded Flink returns the job's
 * result while its mini cluster is still shutting down on threads of its own; exiting at once
 * cut that short and left its files in the temp dir. Its threads are the non-daemon ones, and
 * they end within a second (0.02-0.9 s measured); the DirectRunner leaves none, so it never
 * waits here.
 */
final class RunnerThreads {
  /** Longer than any close seen, short enough that a stuck library cannot hold the exit code. */
  static final Duration MOST = Duration.ofSeconds(10);

  private RunnerThreads() {}

  /**
   * Waits until every other non-daemon thread has ended, or {@code most} has passed. Looks
   * again after each round: a closing cluster starts threads of its own.
   */
  static void awaitEnd(Duration most) {
    long deadline = System.nanoTime() + most.toNanos();
    Thread self = Thread.currentThread();
    boolean waited = true;
    while (waited) {
      waited = false;
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (thread == self || thread.isDaemon() || !thread.isAlive()) {
          continue;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        try {
          thread.join(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        waited = true;
      }
    }
  }
}
