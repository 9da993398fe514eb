package dev.loadprof.report;

/**
 * The share of on-CPU wall time that a process (or group) spent at load 1, i.e. with exactly one
 * of its threads running. By Amdahl's law no number of extra threads can make that part faster,
 * so 1 / serialFraction bounds the speedup. Both times are exact, from the run intervals.
 *
 * @param serialNs wall time at load 1
 * @param onCpuNs wall time at any load k >= 1 (load 0, alive but off-CPU, does not count)
 */
public record SerialFraction(long serialNs, long onCpuNs) {

  /** From a time-at-load array indexed k = 0..max. */
  public static SerialFraction of(long[] timeAtLoadNs) {
    long serial = timeAtLoadNs.length > 1 ? timeAtLoadNs[1] : 0;
    long onCpu = 0;
    for (int k = 1; k < timeAtLoadNs.length; k++) {
      onCpu += timeAtLoadNs[k];
    }
    return new SerialFraction(serial, onCpu);
  }

  /** False when the process was never on a CPU: then there is no fraction to speak of. */
  public boolean defined() {
    return onCpuNs > 0;
  }

  /** serialNs / onCpuNs; 0 when not {@link #defined()}. */
  public double fraction() {
    return defined() ? (double) serialNs / onCpuNs : 0;
  }

  /** Amdahl's limit on speedup, 1 / fraction; +infinity when nothing ran serially. */
  public double amdahlLimit() {
    double f = fraction();
    return f == 0 ? Double.POSITIVE_INFINITY : 1 / f;
  }

  /** "25.00%", or "-" when not defined. */
  public String fractionText() {
    return defined() ? Text.f("%.2f%%", 100 * fraction()) : "-"; // a unit on every figure
  }

  /** "4.00x", "inf" when nothing ran serially, "-" when not defined. */
  public String limitText() {
    if (!defined()) {
      return "-";
    }
    double limit = amdahlLimit();
    return Double.isInfinite(limit) ? "inf" : Text.f("%.2fx", limit);
  }
}
