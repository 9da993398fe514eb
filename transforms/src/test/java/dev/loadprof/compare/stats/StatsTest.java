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

  /**
   * Ties: the exact permutation distribution of the rank sum with mid-ranks. References from
   * scipy 1.17, mannwhitneyu(y, x, method=PermutationMethod(n_resamples=10**12)), which
   * enumerates every permutation at these sizes.
   */
  @Test
  void tiesUseTheExactPermutationDistribution() {
    MannWhitney.Result r = MannWhitney.test(new double[] {1, 2, 2, 3, 3, 3, 4, 5},
        new double[] {3, 4, 4, 5, 5, 6, 7, 7});
    assertTrue(r.exact());
    assertEquals(56.5, r.u(), 1e-12);
    assertEquals(0.009790209790209791, r.pValue(), 1e-12);
    assertEquals(0.011655011655011656, MannWhitney.test(new double[] {5, 5, 6, 7, 7, 8},
        new double[] {7, 8, 8, 9, 9, 9, 10}).pValue(), 1e-12);
    assertEquals(0.42857142857142855, MannWhitney.test(new double[] {1, 1, 2, 2, 3},
        new double[] {1, 2, 3, 3, 3}).pValue(), 1e-12);
    double[] x = new double[10];
    double[] y = new double[10];
    for (int i = 0; i < 10; i++) {
      x[i] = i % 4;
      y[i] = i % 4 + (i % 3 == 0 ? 1 : 0);
    }
    assertEquals(0.5454328952780965, MannWhitney.test(x, y).pValue(), 1e-12);
  }

  /** Identical runs a side, and 2 vs 5 runs with ties: never below the floor. */
  @Test
  void tiedSamplesNeverGoBelowTheFloor() {
    MannWhitney.Result identical = MannWhitney.test(new double[] {1, 1, 1},
        new double[] {2, 2, 2});
    assertEquals(0.1, identical.pValue(), 1e-12, "scipy: exact p = 0.1 (was 0.0469)");
    assertEquals(MannWhitney.minPValue(3, 3), identical.pValue(), 1e-12);
    MannWhitney.Result twoVsFive = MannWhitney.test(new double[] {10, 10},
        new double[] {12, 12, 13, 13, 14});
    assertEquals(0.09523809523809523, twoVsFive.pValue(), 1e-12, "scipy; was 0.0275");
    assertTrue(twoVsFive.pValue() >= MannWhitney.minPValue(2, 5) - 1e-15);
  }

  /** 50 + 50 runs with heavy ties is still exact and never below the floor. */
  @Test
  void fiftyASideWithTiesIsExact() {
    double[] x = new double[50];
    double[] y = new double[50];
    for (int i = 0; i < 50; i++) {
      x[i] = i % 3;
      y[i] = 5 + i % 3;
    }
    MannWhitney.Result r = MannWhitney.test(x, y);
    assertTrue(r.exact());
    assertEquals(MannWhitney.minPValue(50, 50), r.pValue(), 1e-40, "samples entirely apart");
    assertEquals(1.0, MannWhitney.test(x, x.clone()).pValue(), 1e-12);
  }

  /** Over 100 values: scipy's mannwhitneyu(y, x, method='asymptotic'), continuity corrected. */
  @Test
  void largeSamplesUseTheCorrectedNormalApproximation() {
    double[] x = new double[60];
    double[] y = new double[61];
    for (int i = 0; i < 61; i++) {
      if (i < 60) {
        x[i] = i % 7;
      }
      y[i] = i % 7 + (i % 2 == 0 ? 1 : 0);
    }
    MannWhitney.Result r = MannWhitney.test(x, y);
    assertFalse(r.exact());
    assertEquals(2088, r.u(), 1e-12);
    assertEquals(0.17770797641141745, r.pValue(), 1e-12);
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

  /** scipy: stats.ttest_ind(y, x, equal_var=True) and its confidence_interval(1 - alpha). */
  @Test
  void studentTMatchesScipy() {
    StudentT t = StudentT.test(new double[] {100, 104, 98, 101, 97},
        new double[] {150, 148, 155}, 0.05);
    assertEquals(22.858747153520277, t.t(), 1e-9);
    assertEquals(4.591677148207279e-07, t.pValue(), 1e-15);
    assertEquals(6, t.df());
    assertEquals(45.540711108518664, t.lower(), 1e-9);
    assertEquals(56.459288891481336, t.upper(), 1e-9);
    // 2 vs 5: the rank test's smallest p is 0.095; the t-test has no floor.
    StudentT twoVsFive = StudentT.test(new double[] {10, 12}, new double[] {11, 13, 12, 14, 15},
        0.05);
    assertEquals(0.18346904469561015, twoVsFive.pValue(), 1e-12);
    assertEquals(-1.3318548641592494, twoVsFive.lower(), 1e-9);
    assertEquals(5.331854864159249, twoVsFive.upper(), 1e-9);
    StudentT logs = StudentT.test(new double[] {Math.log(289), Math.log(292), Math.log(296)},
        new double[] {Math.log(440), Math.log(436), Math.log(445)}, 0.05);
    assertEquals(1.4611513269201085e-06, logs.pValue(), 1e-15);
    assertEquals(0.38436351537233987, logs.lower(), 1e-9);
    // Every run of a side equal: a difference is certain, none is no evidence.
    assertEquals(0, StudentT.test(new double[] {3, 3}, new double[] {4, 4}, 0.05).pValue());
    assertEquals(1, StudentT.test(new double[] {3, 3}, new double[] {3, 3}, 0.05).pValue());
  }

  /** A noisier candidate (extra variance) widens the interval: s^2 (1 + 1/n) + extra. */
  @Test
  void predictionIntervalWidensForANoisierCandidate() {
    double[] base = {100, 104, 98, 101, 97};
    PredictionInterval plain = PredictionInterval.of(base, 110, 0.05);
    double s2 = 7.5; // the sample variance of base
    PredictionInterval wide = PredictionInterval.of(base, 110, 0.05, s2 * 1.2);
    double ratio = Math.sqrt(1 + 1.2 / 1.2);
    assertEquals((plain.upper() - plain.mean()) * ratio, wide.upper() - wide.mean(), 1e-9);
    assertTrue(wide.pValue() > plain.pValue());
    assertEquals(plain, PredictionInterval.of(base, 110, 0.05, -3), "never narrower");
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
