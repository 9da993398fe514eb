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
  private static final int BUFFER_BYTES = 4 << 20;

  private final FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  private long filePosition;
  private final long end;
  /** File offset of the record last returned. */
  long recordOffset;

  RecordStream(FileChannel channel, long start, long size) {
    this.channel = channel;
    this.filePosition = start;
    this.end = start + size;
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
      return null;
    }
    int size = Short.toUnsignedInt(buffer.getShort(buffer.position() + 6));
    recordOffset = filePosition - buffer.remaining();
    if (size < HEADER_BYTES) {
      throw new IOException("record of size " + size + " at byte " + recordOffset);
    }
    if (!fill(size)) {
      throw new IOException("the data ends inside the record at byte " + recordOffset);
    }
    byte[] record = new byte[size];
    buffer.get(record);
    return record;
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

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
