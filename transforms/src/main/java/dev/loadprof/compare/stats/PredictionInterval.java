package dev.loadprof.compare.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Where one new run is expected to fall, given n >= 2 baseline runs of the same benchmark:
 * mean +- t(1 - alpha/2, n - 1) * s * sqrt(1 + 1/n), the textbook prediction interval for one
 * new observation of a normal population. pValue is the two-sided probability of a new run at
 * least as far from the mean, so the new run is outside the interval exactly when pValue < alpha.
 */
public record PredictionInterval(double mean, double lower, double upper, double pValue) {

  public static PredictionInterval of(double[] baseline, double candidate, double alpha) {
    int n = baseline.length;
    if (n < 2) {
      throw new IllegalArgumentException("a prediction interval needs two baseline runs");
    }
    double mean = OrderStatistics.mean(baseline);
    double scale = OrderStatistics.stdDev(baseline) * Math.sqrt(1 + 1.0 / n);
    if (scale == 0) {
      // Every baseline run equal: any other value is outside.
      return new PredictionInterval(mean, mean, mean, candidate == mean ? 1 : 0);
    }
    TDistribution student = TDistribution.of(n - 1);
    double t = student.inverseSurvivalProbability(alpha / 2);
    double stat = Math.abs(candidate - mean) / scale;
    double p = 2 * student.survivalProbability(stat);
    return new PredictionInterval(mean, mean - t * scale, mean + t * scale, Math.min(1, p));
  }
}
