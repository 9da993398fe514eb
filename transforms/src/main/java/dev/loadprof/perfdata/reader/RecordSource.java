package dev.loadprof.perfdata.reader;

import java.io.IOException;

/**
 * Where the native reader takes perf.data records from, one after the other, each as its own
 * array (header included): a file's data section ({@link RecordStream}), a pipe-mode stream
 * ({@link PipeRecords}), or the records inside compressed ones ({@link CompressedRecords}).
 */
interface RecordSource extends AutoCloseable {
  /** The next record, or null at the end; throws when the bytes are no record (damage). */
  byte[] next() throws IOException;

  /** The byte offset, in the file or stream, of the record last returned (for messages). */
  long recordOffset();

  /** {@link #resync}'s answer when reading cannot go on: the rest of the data is unread. */
  long UNKNOWN_END = Long.MAX_VALUE;

  /**
   * After damaged bytes at {@code damagedAt}: the offset where reading goes on (the next
   * {@link #next} starts there), or {@link #UNKNOWN_END} when it cannot (a stream, or a
   * compressed stream whose state the damage broke).
   */
  default long resync(long damagedAt) throws IOException {
    return UNKNOWN_END;
  }

  @Override
  void close() throws IOException;
}
