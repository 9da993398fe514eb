package dev.loadprof.cli;

import dev.loadprof.archive.RunSelection;
import dev.loadprof.pipelines.AnalyzeOptions;
import picocli.CommandLine.Option;

/** Where archive puts its runs (their night) and when it clears what failed jobs left. */
final class ArchivePartitionOptions {
  @Option(names = "--night", paramLabel = "YYYY-MM-DD",
      description = "The night (UTC date) the traces belong to, their partition in the archive."
          + " Default: the UTC date each trace file was last modified.")
  String night;

  @Option(names = "--debris-grace-minutes", paramLabel = "N",
      description = "Files that failed or killed archive jobs left for a run are deleted by the"
          + " next job that commits it, once they are N minutes old (default 60; younger ones"
          + " may belong to a job still running).")
  long debrisGraceMinutes = 60;

  void applyTo(AnalyzeOptions options) throws UsageException {
    if (night != null) {
      try {
        options.setNight(RunSelection.checkNight(night));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    if (debrisGraceMinutes < 0) {
      throw new UsageException("--debris-grace-minutes takes 0 or more minutes, got "
          + debrisGraceMinutes);
    }
    options.setArchiveDebrisGraceMinutes(debrisGraceMinutes);
  }
}
