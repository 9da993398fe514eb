package dev.loadprof.compare;

/**
 * How a comparison decides.
 *
 * @param alpha the significance level of the tests and the miss rate of the intervals
 * @param thresholds the smallest changes reported
 * @param tableFunctions functions shown per process in compare.txt besides the changed ones
 * @param failOnInterference exit 5 (not 0) when the verdict is interference
 */
public record CompareSettings(double alpha, Thresholds thresholds, int tableFunctions,
    boolean failOnInterference) implements java.io.Serializable {
  public static final CompareSettings DEFAULT = new CompareSettings(0.05, Thresholds.DEFAULT, 5);

  public CompareSettings {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be in (0, 1), got " + alpha);
    }
  }

  public CompareSettings(double alpha, Thresholds thresholds, int tableFunctions) {
    this(alpha, thresholds, tableFunctions, false);
  }

  public CompareSettings withThresholds(Thresholds t) {
    return new CompareSettings(alpha, t, tableFunctions, failOnInterference);
  }

  public CompareSettings failingOnInterference(boolean fail) {
    return new CompareSettings(alpha, thresholds, tableFunctions, fail);
  }
}
