package dev.loadprof.cli;

import dev.loadprof.compare.CompareSettings;
import dev.loadprof.compare.Thresholds;
import picocli.CommandLine.Option;

/** How compare and nightly decide what a change is: --threshold and --alpha. */
final class ComparisonOptions {
  @Option(names = "--threshold", paramLabel = "REL,ABS", converter = Converters.Threshold.class,
      description = "Smallest change reported, relative and/or absolute in real time, e.g."
          + " 5%%,10ms (the default), 2%% or 50ms; a part left out keeps its default.")
  Thresholds thresholds;

  @Option(names = "--alpha", paramLabel = "P", converter = Converters.Alpha.class,
      description = "Significance level of the tests and intervals (compare: 0.05, nightly's"
          + " latest night: 0.01).")
  Double alpha;

  @Option(names = "--fail-on-interference", description = "Exit 5 when the verdict is"
      + " interference (real time grew because other processes held the CPUs the process's"
      + " threads waited for); by default that verdict exits 0.")
  boolean failOnInterference;

  /** The given settings over the command's defaults. */
  CompareSettings applyTo(CompareSettings defaults) {
    CompareSettings s = alpha == null ? defaults
        : new CompareSettings(alpha, defaults.thresholds(), defaults.tableFunctions());
    s = s.failingOnInterference(failOnInterference);
    return thresholds == null ? s : s.withThresholds(thresholds);
  }
}
