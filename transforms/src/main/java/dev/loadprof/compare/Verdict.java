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
  /**
   * Every real-time regression is mostly time the process's threads waited for CPUs that other
   * processes held (or CPU moved by it between a process's functions): the machine was busier,
   * the code did not change.
   */
  INTERFERENCE("interference"),
  IMPROVEMENT("improvement"),
  NO_CHANGE("no change");

  /** Exit code of compare and nightly for a significant real-time regression. */
  public static final int EXIT_REGRESSION = 3;
  /** Exit code of compare and nightly when a process ran on one side only (and no regression). */
  public static final int EXIT_MISSING = 4;
  /** Exit code for interference, only when asked to fail on it (--fail-on-interference). */
  public static final int EXIT_INTERFERENCE = 5;

  public final String id;

  Verdict(String id) {
    this.id = id;
  }

  public static Verdict of(List<MetricComparison> changes) {
    boolean better = false;
    boolean missing = false;
    boolean interference = false;
    for (MetricComparison c : changes) {
      if (c.change() && c.metric().isRealTime()) {
        if (c.isRegression()) {
          if (c.attribution() == null || !c.attribution().isFromInterference()) {
            return REGRESSION;
          }
          interference = true;
        }
        missing |= c.isMissing();
        better |= MetricComparison.IMPROVEMENT.equals(c.kind());
      }
    }
    return missing ? MISSING : interference ? INTERFERENCE : better ? IMPROVEMENT : NO_CHANGE;
  }

  /** 3 for a regression, 4 for a missing process, else 0 (interference included). */
  public int exitCode() {
    return exitCode(false);
  }

  /** As {@link #exitCode()}, and 5 for interference when it is to fail the job. */
  public int exitCode(boolean failOnInterference) {
    return switch (this) {
      case REGRESSION -> EXIT_REGRESSION;
      case MISSING -> EXIT_MISSING;
      case INTERFERENCE -> failOnInterference ? EXIT_INTERFERENCE : 0;
      default -> 0;
    };
  }
}
