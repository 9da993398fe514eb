package dev.loadprof.cli;

import dev.loadprof.archive.RunSelection;
import picocli.CommandLine.Option;

/** Where archive puts its runs (their night) and when it clears what failed jobs left. */
final class ArchivePartitionOptions {
  @Option(names = "--night", paramLabel = "YYYY-MM-DD",
      description = "The night (UTC date) the traces belong to, their partition in the archive."
          + " Default: the date in the trace's run id, else the recording's capture date"
          + " (its header), else the UTC date the file was last modified.")
  String night;

  @Option(names = "--debris-grace-minutes", paramLabel = "N",
      description = "Files that failed or killed archive jobs left for a run are deleted by the"
          + " next job that commits it, once they are N minutes old (default 60; younger ones"
          + " may belong to a job still running).")
  long debrisGraceMinutes = 60;

  /** --night, checked; null when not given. */
  String night() throws UsageException {
    if (night == null) {
      return null;
    }
    try {
      return RunSelection.checkNight(night);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** --debris-grace-minutes in ms, checked. */
  long debrisGraceMillis() throws UsageException {
    if (debrisGraceMinutes < 0) {
      throw new UsageException("--debris-grace-minutes takes 0 or more minutes, got "
          + debrisGraceMinutes);
    }
    return debrisGraceMinutes * 60_000L;
  }
}
