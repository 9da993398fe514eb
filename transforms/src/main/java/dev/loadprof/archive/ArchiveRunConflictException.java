package dev.loadprof.archive;

/**
 * Another trace with the same run id is (or was just) archived: bad input, not a failed job. The
 * message says what to do; the CLI shows it and exits 2.
 */
public final class ArchiveRunConflictException extends IllegalStateException {
  public ArchiveRunConflictException(String message) {
    super(message);
  }

  /** The first ArchiveRunConflictException in a chain of causes (runners wrap them), or null. */
  public static ArchiveRunConflictException find(Throwable t) {
    for (int depth = 0; t != null && depth < 50; depth++, t = t.getCause()) {
      if (t instanceof ArchiveRunConflictException a) {
        return a;
      }
    }
    return null;
  }
}
