package dev.loadprof.archive;

import dev.loadprof.model.BadInput;

/**
 * An archive file that cannot be read: truncated, damaged, missing, or not an archive file at
 * all. The message starts with the file and says what to do, so it can be shown to the user as
 * is; for a piece of an archived run, it names the run and the command that repairs it.
 */
public final class ArchiveCorruptException extends IllegalStateException implements BadInput {
  public ArchiveCorruptException(String file, String problem, Throwable cause) {
    super(file + ": " + problem + "; re-create it with loadprof archive", cause);
  }

  private ArchiveCorruptException(String message, Throwable cause, boolean whole) {
    super(message, cause);
  }

  /**
   * A damaged or missing piece of one archived run.
   *
   * @param source the trace the run was archived from, or null when the damage hides it
   */
  public static ArchiveCorruptException ofRun(String archive, String runId, String source,
      String file, String problem, Throwable cause) {
    return new ArchiveCorruptException(file + ": " + problem + ". Run " + runId + " of "
        + archive + " is damaged; repair it with: " + repairCommand(archive, runId, source),
        cause, true);
  }

  /** The command that re-creates a damaged run: archiving its trace again, no extra flag. */
  public static String repairCommand(String archive, String runId, String source) {
    return "loadprof archive --out " + archive + " "
        + (source == null || source.isEmpty() ? "TRACE (the trace of run " + runId + ")"
            : source);
  }
}
