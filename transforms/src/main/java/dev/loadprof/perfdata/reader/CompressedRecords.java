package dev.loadprof.perfdata.reader;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The records of a {@code perf record -z} recording: PERF_RECORD_COMPRESSED records hold, after
 * their 8-byte header, pieces of one zstd stream that runs across the whole data (perf flushes
 * it at each piece, never ends it), whose bytes are ordinary records; a record may begin in one
 * compressed record and end in the next. This hands on the records of that stream where their
 * compressed record stood, and every uncompressed record as it comes. A recording without
 * compressed records passes through unchanged.
 */
final class CompressedRecords implements RecordSource {
  static final int COMPRESSED = 81;
  /** FEAT_COMPRESSED's type for zstd (perf's util/compress.h): the only one perf writes. */
  private static final int ZSTD = 1;
  /**
   * Decompressed bytes held at most before they form records. perf decompresses each compressed
   * record into a buffer of the recording's mmap size (at most a few MiB); more is damage.
   */
  private static final int MAX_PENDING_BYTES = 256 << 20;
  private static final int OUTPUT_BYTES = 1 << 20;

  private final RecordSource in;
  private ZstdDecompressCtx zstd;
  private ByteBuffer input;
  private ByteBuffer output;
  /** Decompressed bytes not yet handed on, from position to limit (little-endian). */
  private ByteBuffer pending = ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
  private long recordOffset;
  /** Offset of the compressed record the pending bytes came from. */
  private long compressedAt;

  CompressedRecords(RecordSource in) {
    this.in = in;
  }

  /**
   * FEAT_COMPRESSED's section, {u32 version, u32 type, u32 level, u32 ratio, u32 mmap_len}:
   * throws unless the records are compressed with zstd.
   */
  static void checkMethod(ByteBuffer section) throws UnsupportedPerfDataException {
    int type = section.getInt(4);
    if (type != ZSTD) {
      throw new UnsupportedPerfDataException("its records are compressed by method "
          + Integer.toUnsignedString(type) + " (perf writes 1, zstd)");
    }
  }

  @Override
  public byte[] next() throws IOException {
    while (true) {
      byte[] record = decompressedRecord();
      if (record != null) {
        return record;
      }
      record = in.next();
      if (record == null) {
        if (pending.hasRemaining()) {
          throw new IOException("the compressed data ends inside a record (compressed record at"
              + " byte " + compressedAt + ")");
        }
        return null;
      }
      if (ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN).getInt(0) != COMPRESSED) {
        recordOffset = in.recordOffset();
        return record;
      }
      compressedAt = in.recordOffset();
      decompress(record);
    }
  }

  @Override
  public long recordOffset() {
    return recordOffset;
  }

  /**
   * Before any compressed record, damage is the underlying records' to skip; after one, the zstd
   * stream that runs across the data cannot be resumed: the rest is unread.
   */
  @Override
  public long resync(long damagedAt) throws IOException {
    return zstd == null && !pending.hasRemaining() ? in.resync(damagedAt) : UNKNOWN_END;
  }

  /** The next whole record among the decompressed bytes, or null when they hold none. */
  private byte[] decompressedRecord() throws IOException {
    if (pending.remaining() < RecordStream.HEADER_BYTES) {
      return null;
    }
    int size = Short.toUnsignedInt(pending.getShort(pending.position() + 6));
    if (size < RecordStream.HEADER_BYTES) {
      throw new IOException("record of size " + size + " in the compressed record at byte "
          + compressedAt);
    }
    if (pending.remaining() < size) {
      return null;
    }
    byte[] record = new byte[size];
    pending.get(record);
    recordOffset = compressedAt;
    return record;
  }

  /** Feeds one compressed record's payload to the stream; its output goes after the pending. */
  private void decompress(byte[] record) throws IOException {
    if (zstd == null) {
      zstd = new ZstdDecompressCtx();
      input = ByteBuffer.allocateDirect(1 << 16);
      output = ByteBuffer.allocateDirect(OUTPUT_BYTES);
    }
    input.clear();
    input.put(record, RecordStream.HEADER_BYTES, record.length - RecordStream.HEADER_BYTES);
    input.flip();
    try {
      boolean full;
      do {
        output.clear();
        zstd.decompressDirectByteBufferStream(output, input);
        output.flip();
        full = output.limit() == output.capacity();
        append(output);
      } while (input.hasRemaining() || full);
    } catch (ZstdException e) {
      throw new IOException("the compressed record at byte " + compressedAt
          + " does not decompress (" + e.getMessage() + ")", e);
    }
  }

  private void append(ByteBuffer bytes) throws IOException {
    if (pending.capacity() - pending.limit() < bytes.remaining()) {
      int needed = pending.remaining() + bytes.remaining();
      if (needed > MAX_PENDING_BYTES) {
        throw new IOException("the compressed record at byte " + compressedAt
            + " decompresses to more than " + (MAX_PENDING_BYTES >> 20) + " MiB without a whole"
            + " record");
      }
      if (needed <= pending.capacity()) {
        pending.compact().flip();
      } else {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(needed, 2 * pending.capacity()))
            .order(ByteOrder.LITTLE_ENDIAN);
        pending = bigger.put(pending).flip();
      }
    }
    int end = pending.limit();
    pending.limit(end + bytes.remaining());
    pending.put(end, bytes, bytes.position(), bytes.remaining());
    bytes.position(bytes.limit());
  }

  @Override
  public void close() throws IOException {
    if (zstd != null) {
      zstd.close();
    }
    in.close();
  }
}
