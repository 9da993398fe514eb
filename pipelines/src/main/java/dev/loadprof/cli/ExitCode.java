package dev.loadprof.cli;

/** loadprof's exit codes, as documented in every --help. */
public final class ExitCode {
  public static final int OK = 0;
  public static final int JOB_FAILED = 1;
  public static final int BAD_INPUT = 2;
  /** compare and nightly: a significant real-time regression (Verdict.EXIT_REGRESSION). */
  public static final int REGRESSION = 3;

  static final String DOCUMENTED = "Exit codes: 0 success, 1 the job failed, 2 bad usage or"
      + " bad input.";

  static final String DOCUMENTED_COMPARE = "Exit codes: 0 no significant regression, 3 a"
      + " significant real-time regression, 1 the job failed, 2 bad usage or bad input.";

  private ExitCode() {}
}
