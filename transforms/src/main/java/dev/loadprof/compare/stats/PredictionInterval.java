package dev.loadprof.compare.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Where one new value is expected to fall, given n >= 2 earlier values of the same benchmark:
 * mean +- t(1 - alpha/2, n - 1) * s * sqrt(1 + 1/n), the textbook prediction interval for one
 * new observation of a normal population. pValue is the two-sided probability of a new value at
 * least as far from the mean, so the new value is outside the interval exactly when pValue <
 * alpha.
 *
 * <p>The new value may be noisier than the earlier ones: nightly compares the median of the
 * latest night's runs with the medians of earlier nights that may have had more runs each. Its
 * extra variance is then added to the spread: s^2 (1 + 1/n) + extra.
 */
public record PredictionInterval(double mean, double lower, double upper, double pValue) {

  public static PredictionInterval of(double[] baseline, double candidate, double alpha) {
    return of(baseline, candidate, alpha, 0);
  }

  /**
   * @param extraVariance how much more the candidate varies than one earlier value, >= 0
   */
  public static PredictionInterval of(double[] baseline, double candidate, double alpha,
      double extraVariance) {
    int n = baseline.length;
    if (n < 2) {
      throw new IllegalArgumentException("a prediction interval needs two baseline values");
    }
    double mean = OrderStatistics.mean(baseline);
    double s = OrderStatistics.stdDev(baseline);
    double scale = Math.sqrt(s * s * (1 + 1.0 / n) + Math.max(0, extraVariance));
    if (scale == 0) {
      // Every baseline value equal: any other value is outside.
      return new PredictionInterval(mean, mean, mean, candidate == mean ? 1 : 0);
    }
    TDistribution student = TDistribution.of(n - 1);
    double t = student.inverseSurvivalProbability(alpha / 2);
    double stat = Math.abs(candidate - mean) / scale;
    double p = 2 * student.survivalProbability(stat);
    return new PredictionInterval(mean, mean - t * scale, mean + t * scale, Math.min(1, p));
  }
}
