package dev.loadprof.compare.stats;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The Mann–Whitney U (Wilcoxon rank-sum) test of two independent samples, two-sided: twice the
 * smaller one-sided tail of the rank sum's permutation distribution (ties get their mid-ranks and
 * stay tied in every permutation), capped at 1. Exact up to {@value #MAX_EXACT_TOTAL} values in
 * all: without ties from the Gaussian binomial counts of U, with ties from {@link
 * RankSumPermutations}. Above that, the normal approximation with the tie correction of the
 * variance and a continuity correction. A p-value is never below {@link #minPValue}, the
 * smallest the permutation test can give for the sample sizes. Benchstat makes the same choice
 * of test; this code is our own.
 */
public final class MannWhitney {
  /** Exact p-values up to this many values in both samples (50 + 50 costs a few ms). */
  public static final int MAX_EXACT_TOTAL = 100;
  /** C(60, 30) still fits in a long, so the Gaussian binomial counts stay exact. */
  static final int MAX_GAUSSIAN_BINOMIAL_TOTAL = 60;

  private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

  /**
   * @param u U of the candidate sample y: pairs with y > x, plus half the ties
   * @param exact whether p came from the exact permutation distribution
   */
  public record Result(double u, double pValue, boolean exact) {}

  private MannWhitney() {}

  /** Tests x (baseline) against y (candidate); both need at least one value. */
  public static Result test(double[] x, double[] y) {
    int n1 = x.length;
    int n2 = y.length;
    if (n1 == 0 || n2 == 0) {
      throw new IllegalArgumentException("both samples need values");
    }
    double u = 0;
    for (double a : x) {
      for (double b : y) {
        u += b > a ? 1 : b == a ? 0.5 : 0;
      }
    }
    double tieTerm = tieTerm(x, y);
    double floor = minPValue(n1, n2);
    if (tieTerm == 0 && n1 + n2 <= MAX_GAUSSIAN_BINOMIAL_TOTAL) {
      long[] counts = nullCounts(n1, n2);
      double total = total(counts);
      int k = (int) Math.round(u);
      double below = 0;
      for (int i = 0; i <= k; i++) {
        below += counts[i];
      }
      double above = 0;
      for (int i = k; i < counts.length; i++) {
        above += counts[i];
      }
      double p = Math.min(1, 2 * Math.min(below, above) / total);
      return new Result(u, Math.max(floor, p), true);
    }
    if (n1 + n2 <= MAX_EXACT_TOTAL) {
      return new Result(u, Math.max(floor, RankSumPermutations.twoSidedP(x, y)), true);
    }
    double n = n1 + n2;
    double mean = n1 * (double) n2 / 2;
    double var = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)));
    if (var <= 0) {
      return new Result(u, 1, false); // every value equal: nothing to tell apart
    }
    double z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(var);
    double p = Math.min(1, 2 * STANDARD_NORMAL.survivalProbability(z));
    return new Result(u, Math.max(floor, p), false);
  }

  /**
   * The smallest two-sided p-value the test can give with these sample sizes: both samples
   * entirely apart. With 3 vs 3 runs it is 0.1, so no difference can ever reach p < 0.05.
   */
  public static double minPValue(int n1, int n2) {
    return Math.min(1, 2 / binomial(n1 + n2, n1));
  }

  /** P(U <= u) under the null hypothesis, without ties (exact up to 60 values in all). */
  public static double nullCdf(int n1, int n2, int u) {
    if (u < 0) {
      return 0;
    }
    if (n1 + n2 <= MAX_GAUSSIAN_BINOMIAL_TOTAL) {
      long[] counts = nullCounts(n1, n2);
      double below = 0;
      for (int i = 0; i <= Math.min(u, counts.length - 1); i++) {
        below += counts[i];
      }
      return below / total(counts);
    }
    double mean = n1 * (double) n2 / 2;
    double sd = Math.sqrt(n1 * (double) n2 * (n1 + n2 + 1) / 12);
    return STANDARD_NORMAL.cumulativeProbability((u + 0.5 - mean) / sd);
  }

  /**
   * How many of the C(n1+n2, n1) orderings give each U = 0..n1*n2: the coefficients of the
   * Gaussian binomial [n1+n2 choose n1]_q, built factor by factor so that every intermediate is
   * itself a Gaussian binomial (a polynomial with integer coefficients no larger than the end).
   */
  static long[] nullCounts(int n1, int n2) {
    int k = Math.min(n1, n2);
    int n = n1 + n2;
    long[] poly = new long[n1 * n2 + n + 1]; // room for the multiply before each divide
    poly[0] = 1;
    int degree = 0;
    for (int i = 1; i <= k; i++) {
      int up = n - k + i; // multiply by (1 - q^up)
      for (int d = degree + up; d >= up; d--) {
        poly[d] -= poly[d - up];
      }
      degree += up;
      for (int d = i; d <= degree; d++) { // divide by (1 - q^i): a running sum with stride i
        poly[d] += poly[d - i];
      }
      degree -= i;
    }
    return java.util.Arrays.copyOf(poly, n1 * n2 + 1);
  }

  private static double total(long[] counts) {
    double t = 0;
    for (long c : counts) {
      t += c;
    }
    return t;
  }

  /** Sum of t^3 - t over the groups of tied values in both samples together. */
  private static double tieTerm(double[] x, double[] y) {
    double[] all = new double[x.length + y.length];
    System.arraycopy(x, 0, all, 0, x.length);
    System.arraycopy(y, 0, all, x.length, y.length);
    java.util.Arrays.sort(all);
    double term = 0;
    int i = 0;
    while (i < all.length) {
      int j = i;
      while (j + 1 < all.length && all[j + 1] == all[i]) {
        j++;
      }
      double t = j - i + 1;
      term += t * t * t - t;
      i = j + 1;
    }
    return term;
  }

  static double binomial(int n, int k) {
    double r = 1;
    for (int i = 1; i <= k; i++) {
      r = r * (n - k + i) / i;
    }
    return r;
  }
}
