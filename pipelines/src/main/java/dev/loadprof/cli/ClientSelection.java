package dev.loadprof.cli;

import dev.loadprof.archive.RunSelection;
import java.io.PrintStream;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * What analyze, compare and nightly do with their archives on the client before a job starts
 * (inputs told apart, formats, the selection of runs by nights and hosts, the checks left to
 * the client), callable without the CLI: a bench counts the store requests it makes. The same
 * code as the commands run ({@link Inputs#forAnalyze}), nothing of the job.
 */
public final class ClientSelection {
  private ClientSelection() {}

  /**
   * Points Beam's file systems at the stores of {@code paths} as the CLI does for a job on
   * Beam (AWS_ENDPOINT_URL and the AWS SDK's credentials for s3://); needed once per JVM
   * before {@link #select} of a store's archive, unless the caller set them itself.
   */
  public static void useStoresOf(List<String> paths, List<String> pipelineArgs) {
    try {
      PipelineOptions options = new RunnerOptions().pipelineOptions(pipelineArgs,
          PipelineOptions.class, paths);
      FileSystems.setDefaultPipelineOptions(options);
    } catch (UsageException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * Resolves {@code inputs} (archives, here) with the selection as {@code loadprof analyze
   * --nights NIGHTS --hosts HOSTS INPUT...} does before its job.
   *
   * @param nights e.g. "2026-11-20" or null for all
   * @param hosts e.g. "web1,web2" or null for all
   * @param err what the CLI would print (warnings, fallbacks)
   * @return the selected runs' ids
   * @throws IllegalArgumentException with the CLI's one-line message (exit code 2 there)
   */
  public static List<String> select(List<String> inputs, String nights, String hosts,
      PrintStream err) {
    try {
      return Inputs.forAnalyze(inputs, RunSelection.parse(nights, hosts), null, null, err)
          .runIds();
    } catch (UsageException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
