package dev.loadprof.perfdata.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * perf record -z's layout made here: one zstd stream, flushed at each COMPRESSED record and
 * never ended, its bytes ordinary records, one of which begins in one COMPRESSED record and ends
 * in the next, with an uncompressed record (FINISHED_ROUND) between compressed ones.
 */
class CompressedRecordsTest {
  private static final int FINISHED_ROUND = 68;

  /** The records of an in-memory data section, each at its offset. */
  private static final class Listed implements RecordSource {
    private final List<byte[]> records;
    private int next;
    private long offset = 1000;
    private long last;

    Listed(List<byte[]> records) {
      this.records = records;
    }

    @Override
    public byte[] next() {
      if (next == records.size()) {
        return null;
      }
      byte[] r = records.get(next++);
      last = offset;
      offset += r.length;
      return r;
    }

    @Override
    public long recordOffset() {
      return last;
    }

    @Override
    public long resync(long damagedAt) {
      next = records.size();
      return offset;
    }

    @Override
    public void close() {}
  }

  @Test
  void recordsComeOutWholeAcrossCompressedRecordsAndInOrder() throws Exception {
    byte[] a = record(9, 40, 1);
    byte[] b = record(9, 64, 2);
    byte[] c = record(3, 24, 3);
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    plain.write(a);
    plain.write(b);
    plain.write(c);
    byte[] bytes = plain.toByteArray();
    int cut = a.length + 20; // inside b
    try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
      byte[] first = compressed(zstd, bytes, 0, cut);
      byte[] second = compressed(zstd, bytes, cut, bytes.length - cut);
      byte[] round = record(FINISHED_ROUND, 8, 0);
      CompressedRecords records = new CompressedRecords(new Listed(List.of(first, round,
          second)));
      assertArrayEquals(a, records.next());
      assertEquals(1000, records.recordOffset(), "a decompressed record is placed at its"
          + " compressed record");
      assertArrayEquals(round, records.next(), "b is not whole before the second piece");
      assertEquals(1000 + first.length, records.recordOffset());
      assertArrayEquals(b, records.next());
      assertEquals(1000 + first.length + round.length, records.recordOffset());
      assertArrayEquals(c, records.next());
      assertNull(records.next());
    }
  }

  @Test
  void aStreamThatEndsInsideARecordIsDamage() throws Exception {
    byte[] a = record(9, 40, 1);
    try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
      CompressedRecords records = new CompressedRecords(new Listed(List.of(
          compressed(zstd, a, 0, 30))));
      // damage in a zstd stream that cannot be resumed: the reader stops there
      assertThrows(java.io.IOException.class, records::next);
    }
  }

  @Test
  void onlyZstdIsDecompressed() throws Exception {
    ByteBuffer zstd = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 1);
    CompressedRecords.checkMethod(zstd); // no exception
    ByteBuffer other = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 2);
    assertThrows(UnsupportedPerfDataException.class, () -> CompressedRecords.checkMethod(other));
  }

  /** A record of {@code type} and {@code size} bytes, its payload filled with {@code fill}. */
  private static byte[] record(int type, int size, int fill) {
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(type).putShort((short) 0).putShort((short) size);
    while (b.hasRemaining()) {
      b.put((byte) fill);
    }
    return b.array();
  }

  /** A COMPRESSED record holding {@code bytes[from, from + n)}, the stream flushed after. */
  private static byte[] compressed(ZstdCompressCtx zstd, byte[] bytes, int from, int n) {
    ByteBuffer in = ByteBuffer.allocateDirect(n).put(bytes, from, n).flip();
    ByteBuffer out = ByteBuffer.allocateDirect(4096);
    // the output buffer is far larger than the input: one call flushes it all
    assertTrue(zstd.compressDirectByteBufferStream(out, in, EndDirective.FLUSH));
    out.flip();
    ByteBuffer record = ByteBuffer.allocate(8 + out.remaining()).order(ByteOrder.LITTLE_ENDIAN);
    record.putInt(CompressedRecords.COMPRESSED).putShort((short) 0)
        .putShort((short) (8 + out.remaining())).put(out);
    return record.array();
  }
}
