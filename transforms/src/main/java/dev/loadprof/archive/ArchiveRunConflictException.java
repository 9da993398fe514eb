package dev.loadprof.archive;

import dev.loadprof.model.BadInput;

/**
 * Another trace with the same run id is (or was just) archived: bad input, not a failed job. The
 * message says what to do; the CLI shows it and exits 2.
 */
public final class ArchiveRunConflictException extends IllegalStateException
    implements BadInput {
  public ArchiveRunConflictException(String message) {
    super(message);
  }
}
