package dev.loadprof.compare.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Reference values from scipy 1.17 (stats.mannwhitneyu, stats.t), computed independently. */
class StatsTest {

  @Test
  void exactMannWhitneyMatchesScipy() {
    MannWhitney.Result r = MannWhitney.test(new double[] {1, 2, 3}, new double[] {4, 5, 6});
    assertTrue(r.exact());
    assertEquals(9, r.u());
    assertEquals(0.1, r.pValue(), 1e-12);
    assertEquals(0.007936507936507936,
        MannWhitney.test(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}).pValue(),
        1e-12);
    MannWhitney.Result mixed = MannWhitney.test(
        new double[] {10.1, 10.5, 9.8, 10.2, 10.0, 9.9, 10.3},
        new double[] {10.4, 10.9, 10.6, 11.0, 10.25, 10.8});
    assertEquals(38.5 + 0.5, mixed.u(), 1e-12, "U of the candidate: 39 of 42 pairs higher");
    assertEquals(SCIPY_MIXED_P, mixed.pValue(), 1e-12);
  }

  /** scipy: mannwhitneyu(y, x, method='exact') for the no-tie sample above. */
  static final double SCIPY_MIXED_P = 0.008158508158508158;

  @Test
  void tiesUseTheCorrectedNormalApproximation() {
    MannWhitney.Result r = MannWhitney.test(new double[] {1, 2, 2, 3, 3, 3, 4, 5},
        new double[] {3, 4, 4, 5, 5, 6, 7, 7});
    assertFalse(r.exact());
    assertEquals(56.5, r.u(), 1e-12);
    assertEquals(0.010515245935858907, r.pValue(), 1e-6);
  }

  @Test
  void allEqualIsNoEvidence() {
    assertEquals(1, MannWhitney.test(new double[] {0, 0}, new double[] {0, 0, 0}).pValue());
  }

  @Test
  void smallestPossiblePValue() {
    assertEquals(0.1, MannWhitney.minPValue(3, 3), 1e-12, "3 vs 3 can never reach 0.05");
    assertEquals(2.0 / 252, MannWhitney.minPValue(5, 5), 1e-12);
    assertEquals(0.2, MannWhitney.minPValue(3, 2), 1e-12);
  }

  @Test
  void nullCountsAreTheGaussianBinomial() {
    long[] c = MannWhitney.nullCounts(5, 5);
    long total = 0;
    for (long v : c) {
      total += v;
    }
    assertEquals(252, total);
    assertEquals(1, c[0]);
    assertEquals(2, c[2]);
    assertEquals(3, c[3]);
    assertEquals(c[25], c[0], "symmetric");
    long[] big = MannWhitney.nullCounts(30, 30);
    long sum = 0;
    for (long v : big) {
      sum += v;
    }
    assertEquals(118264581564861424L, sum, "C(60, 30)");
  }

  @Test
  void hodgesLehmannIntervalFromOrderStatistics() {
    HodgesLehmann hl =
        HodgesLehmann.of(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}, 0.05);
    assertEquals(5, hl.shift());
    // P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252, so k = 3: the 3rd and 23rd differences.
    assertEquals(2, hl.lower());
    assertEquals(8, hl.upper());
    assertEquals(1 - 8.0 / 252, hl.coverage(), 1e-12);
    HodgesLehmann none = HodgesLehmann.of(new double[] {1, 2, 3}, new double[] {4, 5, 6}, 0.05);
    assertNull(none.lower(), "3 vs 3 cannot give a 95% interval");
  }

  @Test
  void predictionIntervalMatchesScipy() {
    PredictionInterval pi = PredictionInterval.of(new double[] {100, 104, 98, 101, 97}, 110, 0.05);
    assertEquals(91.67066468440662, pi.lower(), 1e-6);
    assertEquals(108.32933531559338, pi.upper(), 1e-6);
    assertEquals(0.029015363531383676, pi.pValue(), 1e-6);
  }

  @Test
  void distributions() {
    assertEquals(0.9419417382415922, Distributions.studentTCdf(2.0, 4), 1e-9);
    assertEquals(2.7764451051977934, Distributions.studentTQuantile(0.975, 4), 1e-6);
    assertEquals(12.706204736174694, Distributions.studentTQuantile(0.975, 1), 1e-5);
    assertEquals(0.9750021048517795, Distributions.normalCdf(1.96), 1e-7);
    assertEquals(1.959964, Distributions.normalQuantile(0.975), 1e-5);
  }

  /** Against R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02. */
  @Test
  void holmAdjustsLikeR() {
    assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02},
        Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005}), 1e-12);
    assertArrayEquals(new double[] {1.0, 1.0}, Holm.adjust(new double[] {0.6, 0.9}), 1e-12);
  }

  /** A level shift moves one neighbour difference only: the noise estimate ignores it. */
  @Test
  void noiseOfNeighboursIgnoresALevelShift() {
    double[] shifted = {1, 2, 1, 2, 1, 11, 12, 11, 12};
    assertEquals(1.4826 / Math.sqrt(2), OrderStatistics.noiseOfNeighbours(shifted), 1e-12);
    assertEquals(0, OrderStatistics.noiseOfNeighbours(new double[] {5}), 0);
  }
}
