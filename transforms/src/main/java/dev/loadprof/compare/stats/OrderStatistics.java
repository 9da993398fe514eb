package dev.loadprof.compare.stats;

import java.util.Arrays;

/** Order statistics of small samples. */
public final class OrderStatistics {
  private OrderStatistics() {}

  /** The median (mean of the two middle values for an even count); NaN when empty. */
  public static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  public static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return values.length == 0 ? Double.NaN : sum / values.length;
  }

  /** The sample standard deviation (n - 1 in the denominator); 0 for fewer than two values. */
  public static double stdDev(double[] values) {
    if (values.length < 2) {
      return 0;
    }
    double m = mean(values);
    double ss = 0;
    for (double v : values) {
      ss += (v - m) * (v - m);
    }
    return Math.sqrt(ss / (values.length - 1));
  }

  /**
   * The noise of a series that may hold level shifts: 1.4826 times the median absolute
   * difference of neighbours, over the square root of 2. A shift moves only one difference, so
   * it barely moves this estimate, unlike the standard deviation. For Gaussian noise it
   * estimates the noise's standard deviation; 0 for fewer than two values.
   */
  public static double noiseOfNeighbours(double[] series) {
    if (series.length < 2) {
      return 0;
    }
    double[] d = new double[series.length - 1];
    for (int i = 0; i + 1 < series.length; i++) {
      d[i] = Math.abs(series[i + 1] - series[i]);
    }
    return 1.4826 * median(d) / Math.sqrt(2);
  }
}
