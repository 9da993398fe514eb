package dev.loadprof.codec;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Number columns of archive records as Avro {@code bytes}, in the project's one varint encoding
 * ({@link Varint}): zig-zag varints, times as deltas, so sorted nanosecond timestamps take 1-3
 * bytes each instead of 8. Decoding checks that a column holds exactly the expected number of
 * values, so a damaged record is reported with the column's name rather than silently misread.
 */
public final class ColumnBytes {
  private ColumnBytes() {}

  public static ByteBuffer ints(int[] values, int n) {
    Varint.Sink w = new Varint.Sink(n * 2);
    w.writeInts(values, n);
    return w.toByteBuffer();
  }

  public static ByteBuffer longs(long[] values, int n) {
    Varint.Sink w = new Varint.Sink(n * 3);
    w.writeLongs(values, n);
    return w.toByteBuffer();
  }

  /** Each value minus the previous one; the first minus {@code base}. */
  public static ByteBuffer deltas(long[] values, int n, long base) {
    Varint.Sink w = new Varint.Sink(n * 2);
    w.writeDeltas(values, n, base);
    return w.toByteBuffer();
  }

  public static int[] readInts(ByteBuffer bytes, int n, String column) {
    Varint.Source r = source(bytes, n, column);
    try {
      return expectEnd(r.readInts(n), r, column);
    } catch (IOException e) {
      throw damaged(column, e);
    }
  }

  public static long[] readLongs(ByteBuffer bytes, int n, String column) {
    Varint.Source r = source(bytes, n, column);
    try {
      return expectEnd(r.readLongs(n), r, column);
    } catch (IOException e) {
      throw damaged(column, e);
    }
  }

  public static long[] readDeltas(ByteBuffer bytes, int n, long base, String column) {
    Varint.Source r = source(bytes, n, column);
    try {
      return expectEnd(r.readDeltas(n, base), r, column);
    } catch (IOException e) {
      throw damaged(column, e);
    }
  }

  /** Every value takes at least one byte: a larger count is damage, not a reason to allocate. */
  private static Varint.Source source(ByteBuffer bytes, int n, String column) {
    if (n < 0 || n > bytes.remaining()) {
      throw new IllegalArgumentException("column " + column + " cannot hold " + n + " values in "
          + bytes.remaining() + " bytes");
    }
    if (bytes.hasArray()) {
      int start = bytes.arrayOffset() + bytes.position();
      return new Varint.Source(bytes.array(), start, start + bytes.remaining());
    }
    byte[] copy = new byte[bytes.remaining()];
    bytes.duplicate().get(copy);
    return new Varint.Source(copy);
  }

  /** Fails unless every byte of the column was consumed. */
  private static <T> T expectEnd(T values, Varint.Source r, String column) {
    if (r.remaining() != 0) {
      throw new IllegalArgumentException("column " + column + " has " + r.remaining()
          + " bytes more than its values");
    }
    return values;
  }

  private static IllegalArgumentException damaged(String column, IOException e) {
    return new IllegalArgumentException("column " + column + " is damaged: " + e.getMessage(), e);
  }
}
