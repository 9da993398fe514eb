package dev.loadprof.compare.stats;

import java.util.Arrays;

/**
 * Holm's step-down adjustment (Holm, 1979) of a family of p-values: with the p-values sorted
 * ascending, the i-th (from 0) is multiplied by (m - i), and the adjusted values are made
 * non-decreasing. Rejecting where the adjusted p is below alpha keeps the chance of any false
 * rejection in the family at most alpha, whatever the dependence between the tests.
 */
public final class Holm {
  private Holm() {}

  /** The adjusted p-values, in the order given. */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(p[a], p[b]));
    double[] adjusted = new double[m];
    double running = 0;
    for (int rank = 0; rank < m; rank++) {
      int i = order[rank];
      running = Math.max(running, Math.min(1, (m - rank) * p[i]));
      adjusted[i] = running;
    }
    return adjusted;
  }
}
