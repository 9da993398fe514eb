package dev.loadprof.compare.stats;

import java.util.Arrays;

/**
 * The Hodges–Lehmann estimate of the shift between two samples (the median of all pairwise
 * differences candidate - baseline) and its distribution-free confidence interval: the k-th
 * smallest and k-th largest pairwise differences, with k taken from the null distribution of the
 * Mann–Whitney U so that the coverage is at least 1 - alpha.
 *
 * @param lower null when the samples are too small for an interval at that level
 * @param upper null likewise
 * @param coverage the interval's actual coverage (>= 1 - alpha), NaN without one
 */
public record HodgesLehmann(double shift, Double lower, Double upper, double coverage) {

  public static HodgesLehmann of(double[] x, double[] y, double alpha) {
    int n1 = x.length;
    int n2 = y.length;
    double[] d = new double[n1 * n2];
    int i = 0;
    for (double a : x) {
      for (double b : y) {
        d[i++] = b - a;
      }
    }
    Arrays.sort(d);
    double shift = OrderStatistics.median(d);
    // Largest k with P(U <= k - 1) <= alpha / 2: then [d_(k), d_(mn+1-k)] covers the shift
    // with probability 1 - 2 P(U <= k - 1).
    int k = 0;
    while (k + 1 <= d.length / 2 && MannWhitney.nullCdf(n1, n2, k) <= alpha / 2) {
      k++;
    }
    if (k == 0) {
      return new HodgesLehmann(shift, null, null, Double.NaN);
    }
    double coverage = 1 - 2 * MannWhitney.nullCdf(n1, n2, k - 1);
    return new HodgesLehmann(shift, d[k - 1], d[d.length - k], coverage);
  }
}
