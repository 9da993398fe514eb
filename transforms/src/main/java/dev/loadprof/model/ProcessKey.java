package dev.loadprof.model;

/**
 * A process of a run is its pid and which start of that pid it is: a pid reused after the
 * process exited (a new PERF_RECORD_FORK of it), and a process that called exec, are new
 * processes with their own names, samples and load. The key packs both into the int that
 * every block, interval and accumulator already carries, so the load computation needs no change: the first process of a pid has the pid
 * itself as key (outputs of traces without reuse or exec stay as they were), the n-th later one
 * has n in the bits above the pid. Linux pids are below 2^22 (PID_MAX_LIMIT).
 */
public final class ProcessKey {
  static final int PID_BITS = 22;
  private static final int PID_MASK = (1 << PID_BITS) - 1;
  /** Starts beyond this share the last key; such churn is counted (TraceHealth). */
  public static final int MAX_RESTARTS = (1 << (31 - PID_BITS)) - 1;

  private ProcessKey() {}

  /** The key of the given later start (1, 2, ...) of a pid; start 0 is the pid itself. */
  public static int of(int pid, int restart) {
    if (pid < 0 || pid > PID_MASK) {
      return pid; // unknown, or outside Linux's range: never reused here
    }
    return pid | (Math.min(restart, MAX_RESTARTS) << PID_BITS);
  }

  /** The pid a user knows the process by. */
  public static int pid(int key) {
    return key < 0 ? key : key & PID_MASK;
  }

  /** How many earlier processes of the same pid the run saw: 0 for the first. */
  public static int restart(int key) {
    return key < 0 ? 0 : key >>> PID_BITS;
  }
}
