package dev.loadprof.cli.progress;

import java.io.PrintStream;
import picocli.CommandLine.Option;

/**
 * Whether a job shows its progress line: by default only when stderr is a terminal (scripts and
 * CI logs stay clean); {@code --progress} asks for it anyway, {@code --quiet} turns it off.
 */
public final class ProgressOptions {
  @Option(names = "--progress",
      description = "Show the progress line on stderr even when stderr is not a terminal.")
  boolean progress;

  @Option(names = {"-q", "--quiet"},
      description = "No progress line (shown on a terminal for jobs longer than 2 s).")
  boolean quiet;

  /** Starts the progress line for a job that writes its console to {@code err}. */
  public ProgressDisplay start(PrintStream err) {
    boolean terminal = err == System.err && Terminal.stderrIsTerminal();
    return ProgressDisplay.start(enabled(terminal), terminal, err);
  }

  boolean enabled(boolean stderrIsTerminal) {
    return !quiet && (progress || stderrIsTerminal);
  }
}
