package dev.loadprof.perfdata.reader;

/**
 * A perf.data header whose sizes, offsets or counts do not fit the file (found by
 * {@link CheckedFile} before anything was allocated): the native reader cannot read it, so the
 * caller may try perf script, and otherwise names the file and {@link #offset}.
 */
public final class DamagedHeaderException extends UnsupportedPerfDataException {
  /** Byte offset in the file of the field that is wrong; -1 when not known. */
  public final long offset;

  DamagedHeaderException(long offset, String what) {
    super("its header is damaged" + (offset >= 0 ? " at byte " + offset : "") + ": " + what);
    this.offset = offset;
  }
}
