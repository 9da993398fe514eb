package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.compare.Attribution.Cause;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** nightly on generated histories (SyntheticNights): known changes, and noise alone. */
class NightlySyntheticTest {
  static final int TRIALS = 200;

  /**
   * The detection rate: in TRIALS seeded histories (30 nights, 3% noise) with a CPU regression of
   * setup at night 10 and a parallelism regression of crunch at night 20, both must be found at
   * their nights with their causes, and no real-time change point may appear elsewhere.
   * Measured: 200 of 200 histories.
   */
  @Test
  void bothRegressionsAreFoundAtTheirNightsWithTheirCauses() {
    List<String> misses = new ArrayList<>();
    for (long seed = 1; seed <= TRIALS; seed++) {
      Nightly n = NightlyHistory.nightly(new SyntheticNights(30, 1, 0.03, 10, 20).generate(seed),
          NightlySettings.DEFAULT.withSeed(seed));
      String where = "seed " + seed + ": " + n.changePoints();
      ChangePoint cpu = NightlyFixturesTest.find(n, "setup", Metric.REAL_TIME);
      ChangePoint par = NightlyFixturesTest.find(n, "crunch", Metric.REAL_TIME);
      boolean found = cpu != null && cpu.night().equals(SyntheticNights.night(10))
          && cpu.attribution().cause() == Cause.CPU
          && par != null && par.night().equals(SyntheticNights.night(20))
          && par.attribution().cause() == Cause.PARALLELISM;
      // The whole process's real time steps by only ~9% at the CPU change (setup is 1/3 of
      // it): its change point may land a night or two off. None may appear anywhere else.
      for (ChangePoint cp : n.changePoints()) {
        long fromCpu = Math.abs(cp.night().toEpochDay() - SyntheticNights.night(10).toEpochDay());
        long fromPar = Math.abs(cp.night().toEpochDay() - SyntheticNights.night(20).toEpochDay());
        found &= !cp.key().metric().isRealTime() || Math.min(fromCpu, fromPar) <= 2;
      }
      if (!found) {
        misses.add(where);
      }
    }
    System.out.printf("injected regressions: both found, at their nights with their causes, in"
        + " %d of %d histories%n", TRIALS - misses.size(), TRIALS);
    assertEquals(List.of(), misses, misses.size() + " of " + TRIALS + " missed");
  }

  /**
   * The false-alarm rate of nightly on noise alone (3% noise on every CPU time, 0.03 on the
   * share at load 4): TRIALS histories of 30 nights, one run a night, each with its own
   * generator and permutation seeds. An alarm is a real-time change point (the figures that set
   * the verdict) or a latest-night verdict other than "no change". Before the step-within-noise
   * rule and the Holm adjustment of the latest night, 8 of 200 alarmed (4%; exit code 3 in 1);
   * with them, 0 of 200.
   */
  @Test
  void noiseOnlyHistoriesRaiseNoAlarm() {
    List<String> alarms = new ArrayList<>();
    int significantBelowThresholds = 0;
    int withOne = 0;
    int anyChangePoint = 0;
    int exit3 = 0;
    int withinNoise = 0;
    for (long seed = 1; seed <= TRIALS; seed++) {
      Nightly n = NightlyHistory.nightly(new SyntheticNights(30, 1, 0.03, -1, -1)
          .generate(1000 + seed), NightlySettings.DEFAULT.withSeed(seed));
      boolean realTimeChange = n.changePoints().stream().anyMatch(c -> c.key().metric()
          .isRealTime());
      anyChangePoint += n.changePoints().isEmpty() ? 0 : 1;
      exit3 += n.exitCode() == 3 ? 1 : 0;
      if (realTimeChange || n.verdict() != Verdict.NO_CHANGE) {
        alarms.add("seed " + seed + ": " + n.changePoints() + " " + n.changes());
      }
      significantBelowThresholds += n.belowThresholds();
      withinNoise += n.withinNoise();
      withOne += n.belowThresholds() > 0 ? 1 : 0;
    }
    System.out.printf("noise only: %d of %d histories alarmed, %d exited 3, %d had a change point"
        + " of any figure; E-Divisive kept %d splits in %d histories that the thresholds"
        + " dropped, and %d more within the noise%n", alarms.size(), TRIALS, exit3,
        anyChangePoint, significantBelowThresholds, withOne, withinNoise);
    assertEquals(List.of(), alarms, alarms.size() + " of " + TRIALS + " alarmed");
  }
}
