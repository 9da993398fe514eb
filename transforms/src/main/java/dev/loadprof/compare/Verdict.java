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
  IMPROVEMENT("improvement"),
  NO_CHANGE("no change");

  /** Exit code of compare and nightly for a significant real-time regression. */
  public static final int EXIT_REGRESSION = 3;

  public final String id;

  Verdict(String id) {
    this.id = id;
  }

  public static Verdict of(List<MetricComparison> changes) {
    boolean better = false;
    for (MetricComparison c : changes) {
      if (c.change() && c.metric().isRealTime()) {
        if (c.isRegression()) {
          return REGRESSION;
        }
        better |= MetricComparison.IMPROVEMENT.equals(c.kind());
      }
    }
    return better ? IMPROVEMENT : NO_CHANGE;
  }

  /** 3 for a regression, else 0. */
  public int exitCode() {
    return this == REGRESSION ? EXIT_REGRESSION : 0;
  }
}
