package dev.loadprof.compare;

import java.util.List;

/**
 * The one-word answer to "did anything get slower in real time?": regression when some
 * process's or function's real time got significantly (and past the thresholds) slower,
 * improvement when none did and some got faster, no change otherwise. CPU, load and
 * time-at-load changes are reported but do not set the verdict: they explain it.
 */
public enum Verdict {
  REGRESSION("regression"),
  /** A process past the thresholds ran on one side only: the comparison cannot judge it. */
  MISSING("missing"),
  IMPROVEMENT("improvement"),
  NO_CHANGE("no change");

  /** Exit code of compare and nightly for a significant real-time regression. */
  public static final int EXIT_REGRESSION = 3;
  /** Exit code of compare and nightly when a process ran on one side only (and no regression). */
  public static final int EXIT_MISSING = 4;

  public final String id;

  Verdict(String id) {
    this.id = id;
  }

  public static Verdict of(List<MetricComparison> changes) {
    boolean better = false;
    boolean missing = false;
    for (MetricComparison c : changes) {
      if (c.change() && c.metric().isRealTime()) {
        if (c.isRegression()) {
          return REGRESSION;
        }
        missing |= c.isMissing();
        better |= MetricComparison.IMPROVEMENT.equals(c.kind());
      }
    }
    return missing ? MISSING : better ? IMPROVEMENT : NO_CHANGE;
  }

  /** 3 for a regression, 4 for a missing process, else 0. */
  public int exitCode() {
    return this == REGRESSION ? EXIT_REGRESSION : this == MISSING ? EXIT_MISSING : 0;
  }
}
