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

  private static final String AT_LOAD = "time_at_load_";

  /**
   * Exact wall time with k of the process's threads on a CPU (k = 0: alive, none running).
   * More time at any load is more wall time, so an increase counts as a regression.
   */
  public static Metric timeAtLoad(int k) {
    return new Metric(AT_LOAD + k, true, true);
  }

  public static Metric parse(String id) {
    for (Metric m : new Metric[] {REAL_TIME, CPU_TIME, AVG_LOAD, SERIAL_FRACTION}) {
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

  /** Fixed order: real, CPU, load, serial fraction, then time at load k by k. */
  private int rank() {
    return switch (id) {
      case "real_time" -> 0;
      case "cpu_time" -> 1;
      case "avg_load" -> 2;
      case "serial_fraction" -> 3;
      default -> 4;
    };
  }

  private int load() {
    return id.startsWith(AT_LOAD) ? Integer.parseInt(id.substring(AT_LOAD.length())) : -1;
  }

  @Override
  public int compareTo(Metric o) {
    int c = Integer.compare(rank(), o.rank());
    return c != 0 ? c : Integer.compare(load(), o.load());
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
