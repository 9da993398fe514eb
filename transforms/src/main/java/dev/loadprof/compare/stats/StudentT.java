package dev.loadprof.compare.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Student's two-sample t-test with the pooled variance (n1 + n2 - 2 degrees of freedom),
 * two-sided, with the confidence interval of the difference of the means, candidate minus
 * baseline. Small samples fall back to it when the exact rank test cannot reach the level asked
 * for (3 vs 3 runs: the rank test's smallest p is 0.1): it has no floor, at the price of
 * assuming roughly normal noise. Its null hypothesis is the rank test's, that both sides come
 * from one distribution (so of one spread): repeats of an unchanged benchmark. Welch's
 * unequal-variance version answers another question and, with 2 runs on a side, keeps about one
 * degree of freedom, too few to find anything. This code is our own.
 *
 * @param difference mean of y minus mean of x
 * @param df n1 + n2 - 2
 * @param lower of the 1 - alpha interval of the difference
 * @param upper likewise
 */
public record StudentT(double difference, double t, double df, double pValue, double lower,
    double upper) {

  /** Tests x (baseline) against y (candidate); at least 3 values in all, one a side. */
  public static StudentT test(double[] x, double[] y, double alpha) {
    int nx = x.length;
    int ny = y.length;
    if (nx < 1 || ny < 1 || nx + ny < 3) {
      throw new IllegalArgumentException("the t-test needs 3 values, one a side at least");
    }
    double diff = OrderStatistics.mean(y) - OrderStatistics.mean(x);
    int df = nx + ny - 2;
    double sx = OrderStatistics.stdDev(x);
    double sy = OrderStatistics.stdDev(y);
    double pooled = ((nx - 1) * sx * sx + (ny - 1) * sy * sy) / df;
    double se = Math.sqrt(pooled * (1.0 / nx + 1.0 / ny));
    if (se == 0) {
      // Every run of each side equal: any difference is certain, none is no evidence.
      double t = diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
      return new StudentT(diff, t, df, diff == 0 ? 1 : 0, diff, diff);
    }
    TDistribution student = TDistribution.of(df);
    double t = diff / se;
    double p = Math.min(1, 2 * student.survivalProbability(Math.abs(t)));
    double q = student.inverseSurvivalProbability(alpha / 2);
    return new StudentT(diff, t, df, p, diff - q * se, diff + q * se);
  }
}
