package dev.loadprof.compare.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * E-Divisive with means (Matteson and James, 2014), the change-point method of MongoDB's
 * signal-processing-algorithms and of Apache Otava: split the series where the energy
 * distance between the part before and the part after is largest, keep the split if a
 * permutation test says it is significant, and repeat inside every part.
 *
 * <p>Distances are |x - y| (alpha = 1). A candidate split of a segment at tau, with m values
 * before and k after, scores q = m k / (m + k) * (2 E|X - Y| - E|X - X'| - E|Y - Y'|), each E a
 * mean over distinct pairs. The permutation test shuffles every current segment on its own
 * (keeping the change points already found), takes the best score over all segments, and counts
 * how often it reaches the observed best; p = (count + 1) / (permutations + 1). It stops early
 * once the count already rules significance out. The random generator is seeded, so the same
 * series always gives the same change points.
 */
public final class EDivisive {
  /**
   * @param index the first value of the new level
   * @param pValue of the permutation test when the change point was accepted
   */
  public record ChangePoint(int index, double q, double pValue) {}

  private final double significance;
  private final int permutations;
  private final int minSize;
  private final long seed;

  /**
   * @param significance the p-value below which a split is kept, e.g. 0.01
   * @param permutations how many shuffles test each split, e.g. 199
   * @param minSize fewest values on either side of a change point, at least 2
   * @param seed seeds the shuffles
   */
  public EDivisive(double significance, int permutations, int minSize, long seed) {
    if (minSize < 2) {
      throw new IllegalArgumentException("minSize must be at least 2, got " + minSize);
    }
    this.significance = significance;
    this.permutations = permutations;
    this.minSize = minSize;
    this.seed = seed;
  }

  /** The significant change points, by index. */
  public List<ChangePoint> changePoints(double[] series) {
    Random random = new Random(seed);
    List<ChangePoint> found = new ArrayList<>();
    List<Integer> bounds = new ArrayList<>(List.of(0, series.length));
    while (true) {
      Best best = best(series, bounds);
      if (best == null) {
        break;
      }
      double[] shuffled = series.clone();
      int atLeast = 0;
      int limit = (int) Math.floor(significance * (permutations + 1)) - 1; // more: not significant
      int done = 0;
      while (done < permutations && atLeast <= limit) {
        for (int s = 0; s + 1 < bounds.size(); s++) {
          shuffle(shuffled, bounds.get(s), bounds.get(s + 1), random);
        }
        Best b = best(shuffled, bounds);
        if (b != null && b.q >= best.q) {
          atLeast++;
        }
        done++;
      }
      double p = (atLeast + 1.0) / (done + 1.0);
      if (atLeast > limit || p > significance) {
        break;
      }
      found.add(new ChangePoint(best.index, best.q, p));
      bounds.add(best.index);
      bounds.sort(null);
    }
    found.sort((a, b) -> Integer.compare(a.index(), b.index()));
    return found;
  }

  record Best(int index, double q) {}

  /** The best split over all segments between the bounds; null when no segment can split. */
  private Best best(double[] x, List<Integer> bounds) {
    Best best = null;
    for (int s = 0; s + 1 < bounds.size(); s++) {
      Best b = bestIn(x, bounds.get(s), bounds.get(s + 1));
      if (b != null && (best == null || b.q > best.q)) {
        best = b;
      }
    }
    return best;
  }

  /**
   * The best split of x[a, b), in O((b - a)^2): moving the split one step right moves one value
   * from the right part to the left, which changes each sum of distances by one row.
   */
  Best bestIn(double[] x, int a, int b) {
    int n = b - a;
    if (n < 2 * minSize) {
      return null;
    }
    double between = 0;
    double left = 0;
    double right = 0;
    for (int i = a; i < b; i++) {
      for (int j = i + 1; j < b; j++) {
        right += Math.abs(x[i] - x[j]);
      }
    }
    Best best = null;
    for (int tau = a + 1; tau <= b - minSize; tau++) {
      int moved = tau - 1; // x[moved] goes from the right part to the left part
      double toLeft = 0;
      for (int i = a; i < moved; i++) {
        toLeft += Math.abs(x[i] - x[moved]);
      }
      double toRight = 0;
      for (int j = moved + 1; j < b; j++) {
        toRight += Math.abs(x[moved] - x[j]);
      }
      left += toLeft;
      right -= toRight;
      between += toRight - toLeft;
      int m = tau - a;
      int k = b - tau;
      if (m < minSize) {
        continue;
      }
      double e = 2 * between / ((double) m * k) - meanPair(left, m) - meanPair(right, k);
      double q = (double) m * k / (m + k) * e;
      if (best == null || q > best.q) {
        best = new Best(tau, q);
      }
    }
    return best;
  }

  private static double meanPair(double sum, int count) {
    return count < 2 ? 0 : sum / (count * (count - 1) / 2.0);
  }

  private static void shuffle(double[] x, int a, int b, Random random) {
    for (int i = b - 1; i > a; i--) {
      int j = a + random.nextInt(i - a + 1);
      double t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
}
