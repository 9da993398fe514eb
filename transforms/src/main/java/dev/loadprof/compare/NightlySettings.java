package dev.loadprof.compare;

/**
 * How nightly decides. The defaults: change points at the permutation test's 0.05 level (as
 * ecp's e.divisive), which 10 nights (5 before, 5 after) can still reach; the latest night
 * judged at alpha 0.01, stricter than compare's 0.05 because it is asked again every night.
 *
 * @param compare the rules of the latest night's comparison (alpha, thresholds)
 * @param historyNights at most this many nights before the latest are its baseline (default 7)
 * @param changePointSignificance permutation-test p below which E-Divisive keeps a split
 * @param permutations shuffles per permutation test
 * @param minNights fewest nights on either side of a change point
 * @param minStepNoise a change point's step (after - before) must be at least this many times
 *     the series' noise (its neighbour-difference estimate), besides the thresholds
 * @param topFunctions functions per benchmark process with a history, by total real time
 * @param seed seeds the permutation tests, so that a history always gives the same answer
 */
public record NightlySettings(
    CompareSettings compare,
    int historyNights,
    double changePointSignificance,
    int permutations,
    int minNights,
    double minStepNoise,
    int topFunctions,
    long seed) implements java.io.Serializable {

  public static final NightlySettings DEFAULT =
      new NightlySettings(new CompareSettings(0.01, Thresholds.DEFAULT, 5), 7, 0.05, 199,
          3, 4.0, 5, 1L);

  public NightlySettings {
    if (historyNights < 1) {
      throw new IllegalArgumentException("--history must be at least 1, got " + historyNights);
    }
  }

  public NightlySettings withHistory(int nights) {
    return new NightlySettings(compare, nights, changePointSignificance, permutations, minNights,
        minStepNoise, topFunctions, seed);
  }

  public NightlySettings withCompare(CompareSettings c) {
    return new NightlySettings(c, historyNights, changePointSignificance, permutations,
        minNights, minStepNoise, topFunctions, seed);
  }

  public NightlySettings withSeed(long s) {
    return new NightlySettings(compare, historyNights, changePointSignificance, permutations,
        minNights, minStepNoise, topFunctions, s);
  }
}
