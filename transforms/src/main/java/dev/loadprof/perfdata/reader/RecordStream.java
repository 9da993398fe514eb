package dev.loadprof.perfdata.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The records of a perf.data file's data section, one after the other, each copied out as its own
 * little-endian buffer (header included). Reads through one large buffer: records are at most
 * 64 KiB (their size is a u16).
 */
final class RecordStream implements RecordSource {
  static final int HEADER_BYTES = 8;
  /** The largest kernel and perf record types with room for newer ones (perf 6.1: 21, 83). */
  private static final int MAX_KERNEL_TYPE = 31;
  private static final int MAX_USER_TYPE = 127;
  /** Records that must follow each other, well formed, where reading resumes after damage. */
  private static final int RESYNC_CHAIN = 4;
  private static final int BUFFER_BYTES = 4 << 20;

  private final FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  private long filePosition;
  private final long start;
  private final long end;
  /** File offset of the record last returned. */
  long recordOffset;

  RecordStream(FileChannel channel, long start, long size) {
    this.channel = channel;
    this.start = start;
    this.filePosition = start;
    this.end = start + size; // both checked against the file's size: no overflow
    buffer.limit(0);
  }

  @Override
  public long recordOffset() {
    return recordOffset;
  }

  /**
   * The next record as a buffer of exactly its bytes (position 0), or null at the end of the data.
   * Throws when a record's size is impossible or the file ends inside one: the data is damaged.
   */
  @Override
  public byte[] next() throws IOException {
    if (!fill(HEADER_BYTES)) {
      if (buffer.hasRemaining()) {
        recordOffset = filePosition - buffer.remaining();
        throw new DamagedRecordException(recordOffset, "the data ends inside a record header");
      }
      return null;
    }
    int size = Short.toUnsignedInt(buffer.getShort(buffer.position() + 6));
    recordOffset = filePosition - buffer.remaining();
    if (size < HEADER_BYTES) {
      throw new DamagedRecordException(recordOffset, "record of size " + size);
    }
    if (!fill(size)) {
      throw new DamagedRecordException(recordOffset, "the data ends inside the record");
    }
    // A size that is wrong (one flipped bit) would swallow the records after it. When no
    // record starts where this one ends, and well-formed records start inside it, its size is
    // the damage (otherwise the next record's header is, and the next call finds it).
    if (fill(size + HEADER_BYTES)) {
      int next = buffer.position() + size;
      if ((!knownType(buffer.getInt(next))
          || Short.toUnsignedInt(buffer.getShort(next + 6)) < HEADER_BYTES)
          && chainAfter(recordOffset, recordOffset + size) >= 0) {
        throw new DamagedRecordException(recordOffset, "record of size " + size
            + " holds the records after it (a damaged size)");
      }
    }
    byte[] record = new byte[size];
    buffer.get(record);
    return record;
  }

  /** True for a type perf writes: the kernel's and perf's own (FINISHED_ROUND, ...). */
  static boolean knownType(int type) {
    return (type > 0 && type <= MAX_KERNEL_TYPE)
        || (type >= RecordFields.USER_TYPE_START && type <= MAX_USER_TYPE);
  }

  /**
   * After damaged bytes at {@code damagedAt}: the offset from which records can be read again,
   * the first 8-byte aligned place (records are kept 8-byte aligned) where
   * {@value #RESYNC_CHAIN} well-formed records follow each other, or end the data exactly;
   * the end of the data when there is none. Reading goes on from there.
   */
  @Override
  public long resync(long damagedAt) throws IOException {
    long found = chainAfter(damagedAt, end);
    long resumeAt = found < 0 ? end : found;
    filePosition = resumeAt;
    buffer.clear().limit(0);
    return resumeAt;
  }

  /** The first place after {@code at}, before {@code limit}, where records chain; -1 if none. */
  private long chainAfter(long at, long limit) throws IOException {
    for (long p = at + HEADER_BYTES - Math.floorMod(at - start, HEADER_BYTES); p < limit;
        p += HEADER_BYTES) {
      if (chainsFrom(p)) {
        return p;
      }
    }
    return -1;
  }

  private boolean chainsFrom(long at) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int n = 0; n < RESYNC_CHAIN && at != end; n++) {
      if (end - at < HEADER_BYTES || channel.read(header.clear(), at) < HEADER_BYTES) {
        return false;
      }
      int size = Short.toUnsignedInt(header.getShort(6));
      if (!knownType(header.getInt(0)) || size < HEADER_BYTES || size % HEADER_BYTES != 0
          || size > end - at) {
        return false;
      }
      at += size;
    }
    return true;
  }

  /** True once {@code n} bytes are buffered; false at the end of the data section. */
  private boolean fill(int n) throws IOException {
    if (buffer.remaining() >= n) {
      return true;
    }
    buffer.compact();
    while (buffer.position() < n && filePosition < end) {
      int want = (int) Math.min(buffer.remaining(), end - filePosition);
      ByteBuffer window = buffer.slice(buffer.position(), want);
      int read = channel.read(window, filePosition);
      if (read < 0) {
        break;
      }
      buffer.position(buffer.position() + read);
      filePosition += read;
    }
    buffer.flip();
    return buffer.remaining() >= n;
  }

  /** A record whose header cannot be right, at {@link #offset}; reading can resync after it. */
  static final class DamagedRecordException extends IOException {
    final long offset;

    DamagedRecordException(long offset, String why) {
      super(why);
      this.offset = offset;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
