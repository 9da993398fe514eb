package dev.loadprof.archive;

import dev.loadprof.model.BadInput;

/**
 * An archive file that cannot be read: truncated, damaged, or not an archive file at all. The
 * message starts with the file and says what to do, so it can be shown to the user as is.
 */
public final class ArchiveCorruptException extends IllegalStateException implements BadInput {
  public ArchiveCorruptException(String file, String problem, Throwable cause) {
    super(file + ": " + problem + "; re-create it with loadprof archive", cause);
  }
}
