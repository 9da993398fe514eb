package dev.loadprof.archive;

/**
 * An archive file that cannot be read: truncated, damaged, or not an archive file at all. The
 * message starts with the file and says what to do, so it can be shown to the user as is.
 */
public final class ArchiveCorruptException extends IllegalStateException {
  public ArchiveCorruptException(String file, String problem, Throwable cause) {
    super(file + ": " + problem + "; re-create it with loadprof archive", cause);
  }

  /** The first ArchiveCorruptException in a chain of causes (runners wrap them), or null. */
  public static ArchiveCorruptException find(Throwable t) {
    for (int depth = 0; t != null && depth < 50; depth++, t = t.getCause()) {
      if (t instanceof ArchiveCorruptException a) {
        return a;
      }
    }
    return null;
  }
}
