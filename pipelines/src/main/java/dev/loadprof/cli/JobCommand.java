package dev.loadprof.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * A subcommand of loadprof: one class per command (analyze, archive; later compare, nightly,
 * record), annotated with its picocli options and mixins and listed in {@link LoadprofCli}.
 */
interface JobCommand {
  /**
   * Runs the command once its options are parsed.
   *
   * @param pipelineArgs the Beam and Flink options given on the command line, already checked
   *     against Beam's registered options, as {@code --name=value} or {@code --flag}
   * @return the exit code ({@link ExitCode})
   */
  int run(List<String> pipelineArgs, PrintStream out, PrintStream err) throws UsageException;
}
