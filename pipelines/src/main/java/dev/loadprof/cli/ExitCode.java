package dev.loadprof.cli;

/** loadprof's exit codes, as documented in every --help. */
public final class ExitCode {
  public static final int OK = 0;
  public static final int JOB_FAILED = 1;
  public static final int BAD_INPUT = 2;
  /** compare and nightly: a significant real-time regression (Verdict.EXIT_REGRESSION). */
  public static final int REGRESSION = 3;
  /** compare and nightly: a process ran on one side only (Verdict.EXIT_MISSING). */
  public static final int MISSING = 4;
  /** compare and nightly with --fail-on-interference: interference (Verdict.EXIT_INTERFERENCE). */
  public static final int INTERFERENCE = 5;
  /** Stopped by SIGINT (Ctrl-C), as the JVM exits then: 128 + 2. */
  public static final int STOPPED = 130;

  static final String DOCUMENTED = "Exit codes: 0 success, 1 the job failed, 2 bad usage or"
      + " bad input.";

  static final String DOCUMENTED_COMPARE = "Exit codes: 0 no significant regression, 3 a"
      + " significant real-time regression, 4 a process past the thresholds ran on one side"
      + " only (missing), 0 (5 with --fail-on-interference) interference: the real time grew"
      + " because other processes held the CPUs, 1 the job failed, 2 bad usage or bad input"
      + " (also a --comm or --pid that matches no process).";

  private ExitCode() {}
}
