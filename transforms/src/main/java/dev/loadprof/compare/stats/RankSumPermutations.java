package dev.loadprof.compare.stats;

import java.util.Arrays;

/**
 * The exact permutation distribution of the Wilcoxon rank sum with ties: every one of the
 * C(n, k) ways to pick which k of the n pooled values form the smaller sample is equally likely
 * under the null hypothesis, and tied values keep their common mid-rank. Mid-ranks are halves,
 * so the sums are counted over doubled mid-ranks, which are integers; the tie groups are taken
 * one at a time (choosing j of a group of t in C(t, j) ways), and each tail only counts sums up
 * to the observed one, so 50 + 50 values cost about n * k * observed-sum additions.
 */
final class RankSumPermutations {
  private RankSumPermutations() {}

  /**
   * Two-sided p: twice the smaller of P(S <= s) and P(S >= s) for the rank sum S of the
   * smaller sample, capped at 1 (scipy's mannwhitneyu with a PermutationMethod gives the same).
   */
  static double twoSidedP(double[] x, double[] y) {
    double[] small = x.length <= y.length ? x : y;
    double[] large = small == x ? y : x;
    int n = small.length + large.length;
    int k = small.length;
    double[] pooled = new double[n];
    System.arraycopy(small, 0, pooled, 0, k);
    System.arraycopy(large, 0, pooled, k, large.length);
    double[] sorted = pooled.clone();
    Arrays.sort(sorted);
    // Tie groups in rank order: their sizes and doubled mid-ranks (first + last 1-based rank).
    int[] sizes = new int[n];
    int[] doubledRanks = new int[n];
    int groups = 0;
    for (int i = 0; i < n; ) {
      int j = i;
      while (j + 1 < n && sorted[j + 1] == sorted[i]) {
        j++;
      }
      sizes[groups] = j - i + 1;
      doubledRanks[groups] = i + j + 2;
      groups++;
      i = j + 1;
    }
    int observed = 0;
    for (int i = 0; i < k; i++) {
      int g = groupOf(sorted, pooled[i], sizes, groups);
      observed += doubledRanks[g];
    }
    sizes = Arrays.copyOf(sizes, groups);
    doubledRanks = Arrays.copyOf(doubledRanks, groups);
    // Reversed ranks (2(n+1) - r) turn the upper tail into a lower one.
    int[] reversed = new int[groups];
    for (int g = 0; g < groups; g++) {
      reversed[g] = 2 * (n + 1) - doubledRanks[g];
    }
    double total = binomial(n, k);
    double lower = lowerTailCount(sizes, doubledRanks, k, observed) / total;
    double upper = lowerTailCount(sizes, reversed, k, 2 * k * (n + 1) - observed) / total;
    return Math.min(1, 2 * Math.min(lower, upper));
  }

  /** How many choices of k values have a doubled rank sum of at most cap. */
  private static double lowerTailCount(int[] sizes, int[] doubledRanks, int k, int cap) {
    // ways[j][s]: choices of j values so far with doubled rank sum s.
    double[][] ways = new double[k + 1][cap + 1];
    ways[0][0] = 1;
    for (int g = 0; g < sizes.length; g++) {
      int t = sizes[g];
      int r = doubledRanks[g];
      for (int j = k; j >= 1; j--) { // descending: ways[j - m] still hold the groups before g
        double[] row = ways[j];
        for (int m = 1; m <= Math.min(t, j); m++) {
          double choose = binomial(t, m);
          double[] from = ways[j - m];
          int shift = m * r;
          for (int s = cap; s >= shift; s--) {
            if (from[s - shift] != 0) {
              row[s] += choose * from[s - shift];
            }
          }
        }
      }
    }
    double count = 0;
    for (double c : ways[k]) {
      count += c;
    }
    return count;
  }

  private static int groupOf(double[] sorted, double value, int[] sizes, int groups) {
    int at = Arrays.binarySearch(sorted, value);
    while (at > 0 && sorted[at - 1] == value) {
      at--;
    }
    int start = 0;
    for (int g = 0; g < groups; g++) {
      if (start == at) {
        return g;
      }
      start += sizes[g];
    }
    throw new IllegalStateException("value not in its own pool");
  }

  private static double binomial(int n, int k) {
    return MannWhitney.binomial(n, k);
  }
}
