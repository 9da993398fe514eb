package dev.loadprof.cli.progress;

import java.io.PrintStream;
import org.apache.beam.sdk.options.PipelineOptions;
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

  /**
   * Starts the progress line for a job run with {@code options} that writes its console to
   * {@code err}: counted in this JVM, or, for a job on a remote Flink cluster, read from the
   * job's metrics in the cluster's REST API ({@link FlinkClusterProgress}).
   */
  public ProgressDisplay start(PrintStream err, PipelineOptions options) {
    boolean terminal = err == System.err && Terminal.stderrIsTerminal();
    boolean enabled = enabled(terminal);
    String cluster = enabled ? FlinkClusterProgress.restAddress(options) : null;
    if (cluster == null) {
      return ProgressDisplay.start(enabled, terminal, err);
    }
    FlinkClusterProgress remote = FlinkClusterProgress.watch(cluster, options.getJobName());
    return ProgressDisplay.start(true, terminal, err, remote, remote);
  }

  /** Starts the progress line for a job run in this JVM without a Beam runner. */
  public ProgressDisplay start(PrintStream err) {
    boolean terminal = err == System.err && Terminal.stderrIsTerminal();
    return ProgressDisplay.start(enabled(terminal), terminal, err);
  }

  boolean enabled(boolean stderrIsTerminal) {
    return !quiet && (progress || stderrIsTerminal);
  }
}
