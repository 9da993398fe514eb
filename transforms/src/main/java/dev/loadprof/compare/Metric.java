package dev.loadprof.compare;

import java.util.Locale;

/**
 * One compared figure. Times are in ns; real time is loadprof's wall time from samples (CPU
 * time at load k divided by k, summed), so real = CPU / average load holds exactly.
 *
 * @param id as written to compare.json, nightly.json and history.csv
 * @param higherIsWorse whether an increase is a regression (false for the average load)
 * @param isTime in ns; the absolute threshold applies to the change itself
 */
public record Metric(String id, boolean higherIsWorse, boolean isTime) implements
    Comparable<Metric> {
  public static final Metric REAL_TIME = new Metric("real_time", true, true);
  public static final Metric CPU_TIME = new Metric("cpu_time", true, true);
  public static final Metric AVG_LOAD = new Metric("avg_load", false, false);
  /** Share of on-CPU wall time at load 1, from the exact time at load. */
  public static final Metric SERIAL_FRACTION = new Metric("serial_fraction", true, false);

  // Whole wall time, from the thread states (absent, not 0, in a run whose trace has none).
  /** The process's span: first to last instant a thread of it ran. */
  public static final Metric WALL_TIME = new Metric("wall_time", true, true);
  /** Span time lost to waiting for a CPU (runnable threads), see ThreadStateSummary. */
  public static final Metric CPU_WAIT = new Metric("cpu_wait", true, true);
  /** The part of cpu_wait at load 1 or more: the CPU wait in the real time. */
  public static final Metric CPU_WAIT_ON_CPU = new Metric("cpu_wait_on_cpu", true, true);
  /** The part of cpu_wait for CPUs that other processes held: interference. */
  public static final Metric CPU_WAIT_OTHERS = new Metric("cpu_wait_others", true, true);
  /** The part of cpu_wait_others at load 1 or more: the interference in the real time. */
  public static final Metric CPU_WAIT_OTHERS_ON_CPU = new Metric("cpu_wait_others_on_cpu", true,
      true);
  /** Thread-seconds sleeping (S: locks, sleeps, pipes, queues). */
  public static final Metric SLEEPING_TIME = new Metric("sleeping_thread_time", true, true);
  /** Thread-seconds in uninterruptible waits (D: disk). */
  public static final Metric DISK_TIME = new Metric("disk_thread_time", true, true);
  /** Thread-seconds runnable while another process held the CPU. */
  public static final Metric RUNNABLE_OTHERS_TIME = new Metric("runnable_others_thread_time",
      true, true);

  /**
   * Time on the critical path (dev.loadprof.critical): a process's is the path's length, a
   * function's its samples' time on the path (leaf frame, as functions.txt). Only runs with a
   * path have it (system-wide recordings with wake-ups): its absence is unknown, never 0, but
   * in a run with a path a function off the path has 0.
   */
  public static final Metric CRITICAL_TIME = new Metric("critical_time", true, true);

  /** Every named metric, in the fixed order of the tables. */
  private static final Metric[] NAMED = {REAL_TIME, CPU_TIME, AVG_LOAD, SERIAL_FRACTION,
      WALL_TIME, CPU_WAIT, CPU_WAIT_ON_CPU, CPU_WAIT_OTHERS, CPU_WAIT_OTHERS_ON_CPU, SLEEPING_TIME,
      DISK_TIME, RUNNABLE_OTHERS_TIME, CRITICAL_TIME};

  private static final String AT_LOAD = "time_at_load_";

  /**
   * Exact wall time with k of the process's threads on a CPU (k = 0: alive, none running).
   * More time at any load is more wall time, so an increase counts as a regression.
   */
  public static Metric timeAtLoad(int k) {
    return new Metric(AT_LOAD + k, true, true);
  }

  public static Metric parse(String id) {
    for (Metric m : NAMED) {
      if (m.id.equals(id)) {
        return m;
      }
    }
    if (id.startsWith(AT_LOAD)) {
      return timeAtLoad(Integer.parseInt(id.substring(AT_LOAD.length())));
    }
    throw new IllegalArgumentException("unknown metric " + id);
  }

  public boolean isRealTime() {
    return this.equals(REAL_TIME);
  }

  /**
   * A figure of the thread states: a run whose trace has none (no sched_switch, an old archive)
   * does not know it, so its absence is unknown, never 0.
   */
  public boolean isFromThreadStates() {
    int r = rank();
    return r >= WALL_RANK && r < CRITICAL_RANK;
  }

  /** Time on the critical path, see {@link #CRITICAL_TIME}. */
  public boolean isCritical() {
    return this.equals(CRITICAL_TIME);
  }

  /** The figure that measures the interference in this one, or null. */
  public Metric interference() {
    return isRealTime() ? CPU_WAIT_OTHERS_ON_CPU : null;
  }

  private static final int WALL_RANK = 4;
  private static final int CRITICAL_RANK = 12;

  /**
   * Fixed order: real, CPU, load, serial fraction, the wall figures, then time at load k. Looked
   * up by id, not by a scan of NAMED: history's sorted maps compare metrics millions of times in
   * a nightly of thousands of runs.
   */
  private int rank() {
    return RANKS.getOrDefault(id, NAMED.length);
  }

  /** Each named metric's place in NAMED, by id. */
  private static final java.util.Map<String, Integer> RANKS = ranks();

  private static java.util.Map<String, Integer> ranks() {
    java.util.Map<String, Integer> ranks = new java.util.HashMap<>();
    for (int i = 0; i < NAMED.length; i++) {
      ranks.put(NAMED[i].id, i);
    }
    return ranks;
  }

  private int load() {
    return id.startsWith(AT_LOAD) ? Integer.parseInt(id.substring(AT_LOAD.length())) : -1;
  }

  @Override
  public int compareTo(Metric o) {
    if (id.equals(o.id)) {
      return 0;
    }
    int r = rank();
    int c = Integer.compare(r, o.rank());
    return c != 0 || r < NAMED.length ? c : Integer.compare(load(), o.load());
  }

  /** "12.3ms", "1.500s", "1.23" (loads), "0.2500" (fractions). */
  public String format(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    if (!isTime) {
      return String.format(Locale.ROOT, equals(SERIAL_FRACTION) ? "%.4f" : "%.2f", value);
    }
    double abs = Math.abs(value);
    if (abs >= 1e9) {
      return String.format(Locale.ROOT, "%.3fs", value / 1e9);
    }
    if (abs >= 1e6) {
      return String.format(Locale.ROOT, "%.1fms", value / 1e6);
    }
    return String.format(Locale.ROOT, "%.1fus", value / 1e3);
  }
}
