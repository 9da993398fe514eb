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

  /**
   * After damaged bytes at {@code damagedAt}: where reading goes on (the offset of the first
   * record to read again, or of the end); the bytes between are unread.
   */
  long resync(long damagedAt) throws IOException;

  @Override
  void close() throws IOException;
}
