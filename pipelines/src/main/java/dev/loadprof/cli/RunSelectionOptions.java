package dev.loadprof.cli;

import dev.loadprof.archive.RunSelection;
import dev.loadprof.pipelines.AnalyzeSettings;
import picocli.CommandLine.Option;

/** Which runs of the archives analyze reads: their nights and hosts (the partitions). */
final class RunSelectionOptions {
  @Option(names = "--nights", paramLabel = "LIST",
      description = "Only the archived runs of these nights: UTC dates YYYY-MM-DD or ranges"
          + " FROM..TO, comma-separated. Lists only those nights' part of the archive.")
  String nights;

  @Option(names = "--hosts", paramLabel = "LIST",
      description = "Only the archived runs of these hosts, as the traces' headers name them"
          + " (_ for runs without a host), comma-separated.")
  String hosts;

  /** The selection; a malformed --nights is bad usage. */
  RunSelection selection() throws UsageException {
    try {
      return RunSelection.parse(nights, hosts);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  void applyTo(AnalyzeSettings.Builder settings) throws UsageException {
    selection(); // checked before the pipeline parses them again
    settings.runs(nights, hosts);
  }
}
