package dev.loadprof.compare.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EDivisiveTest {
  private final EDivisive detector = new EDivisive(0.01, 199, 3, 42);

  @Test
  void findsTwoStepsAtTheirIndexes() {
    Random r = new Random(7);
    double[] x = new double[40];
    for (int i = 0; i < x.length; i++) {
      double level = i < 15 ? 100 : i < 28 ? 120 : 90;
      x[i] = level + r.nextGaussian() * 3;
    }
    List<EDivisive.ChangePoint> cps = detector.changePoints(x);
    assertEquals(List.of(15, 28), cps.stream().map(EDivisive.ChangePoint::index).toList());
    assertTrue(cps.get(0).pValue() <= 0.01);
  }

  @Test
  void sameSeedSameAnswer() {
    Random r = new Random(3);
    double[] x = new double[30];
    for (int i = 0; i < x.length; i++) {
      x[i] = 100 + r.nextGaussian() * 5 + (i >= 20 ? 4 : 0);
    }
    assertEquals(detector.changePoints(x), detector.changePoints(x));
  }

  @Test
  void flatSeriesHasNoChangePoint() {
    double[] x = new double[30];
    java.util.Arrays.fill(x, 5);
    assertTrue(detector.changePoints(x).isEmpty());
  }

  @Test
  void splitScoreIsTheEnergyStatistic() {
    // Two points each side, far apart: E|X-Y| = 10, within means 0, q = 2*2/4 * 20 = 20.
    double[] x = {0, 0, 10, 10};
    var best = new EDivisive(0.01, 9, 2, 1).bestIn(x, 0, 4);
    assertEquals(2, best.index());
    assertEquals(20, best.q(), 1e-12);
  }
}
