package dev.loadprof.archive;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Encodes number columns as zig-zag varints into one byte array, and decodes them back straight
 * into primitive arrays. Times are written as deltas, so sorted nanosecond timestamps take 1-3
 * bytes each instead of 8. Decoding checks that a column holds exactly the expected number of
 * values, so a damaged record is reported rather than silently misread.
 */
final class ColumnBytes {
  private ColumnBytes() {}

  /** A growable byte buffer for one column. */
  static final class Writer {
    private byte[] buf;
    private int size;

    Writer(int expectedValues) {
      buf = new byte[Math.max(16, expectedValues * 2)];
    }

    void writeLong(long v) {
      if (buf.length - size < 10) {
        buf = Arrays.copyOf(buf, buf.length * 2);
      }
      long z = (v << 1) ^ (v >> 63);
      while ((z & ~0x7FL) != 0) {
        buf[size++] = (byte) ((z & 0x7F) | 0x80);
        z >>>= 7;
      }
      buf[size++] = (byte) z;
    }

    ByteBuffer toByteBuffer() {
      return ByteBuffer.wrap(buf, 0, size).slice();
    }
  }

  /** Reads varints from a column, failing clearly when it is short or malformed. */
  static final class Reader {
    private final byte[] buf;
    private int pos;
    private final int end;
    private final String column;

    Reader(ByteBuffer bytes, String column) {
      this.column = column;
      if (bytes.hasArray()) {
        buf = bytes.array();
        pos = bytes.arrayOffset() + bytes.position();
        end = pos + bytes.remaining();
      } else {
        buf = new byte[bytes.remaining()];
        bytes.duplicate().get(buf);
        pos = 0;
        end = buf.length;
      }
    }

    long readLong() {
      long z = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw new IllegalArgumentException("column " + column + " ends early");
        }
        int b = buf[pos++];
        z |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return (z >>> 1) ^ -(z & 1);
        }
      }
      throw new IllegalArgumentException("column " + column + " holds a malformed varint");
    }

    int readInt() {
      long v = readLong();
      if (v != (int) v) {
        throw new IllegalArgumentException("column " + column + " holds " + v
            + ", which does not fit an int");
      }
      return (int) v;
    }

    /** Fails unless every byte of the column was consumed. */
    void expectEnd() {
      if (pos != end) {
        throw new IllegalArgumentException("column " + column + " has " + (end - pos)
            + " bytes more than its values");
      }
    }
  }

  static ByteBuffer ints(int[] values, int n) {
    Writer w = new Writer(n);
    for (int i = 0; i < n; i++) {
      w.writeLong(values[i]);
    }
    return w.toByteBuffer();
  }

  static ByteBuffer longs(long[] values, int n) {
    Writer w = new Writer(n * 2);
    for (int i = 0; i < n; i++) {
      w.writeLong(values[i]);
    }
    return w.toByteBuffer();
  }

  /** Each value minus the previous one; the first minus {@code base}. */
  static ByteBuffer deltas(long[] values, int n, long base) {
    Writer w = new Writer(n * 2);
    long prev = base;
    for (int i = 0; i < n; i++) {
      w.writeLong(values[i] - prev);
      prev = values[i];
    }
    return w.toByteBuffer();
  }

  static int[] readInts(ByteBuffer bytes, int n, String column) {
    Reader r = new Reader(bytes, column);
    int[] a = new int[checkedCount(n, bytes, column)];
    for (int i = 0; i < n; i++) {
      a[i] = r.readInt();
    }
    r.expectEnd();
    return a;
  }

  static long[] readLongs(ByteBuffer bytes, int n, String column) {
    Reader r = new Reader(bytes, column);
    long[] a = new long[checkedCount(n, bytes, column)];
    for (int i = 0; i < n; i++) {
      a[i] = r.readLong();
    }
    r.expectEnd();
    return a;
  }

  static long[] readDeltas(ByteBuffer bytes, int n, long base, String column) {
    Reader r = new Reader(bytes, column);
    long[] a = new long[checkedCount(n, bytes, column)];
    long prev = base;
    for (int i = 0; i < n; i++) {
      prev += r.readLong();
      a[i] = prev;
    }
    r.expectEnd();
    return a;
  }

  /** Every value takes at least one byte: a larger count is damage, not a reason to allocate. */
  private static int checkedCount(int n, ByteBuffer bytes, String column) {
    if (n < 0 || n > bytes.remaining()) {
      throw new IllegalArgumentException("column " + column + " cannot hold " + n + " values in "
          + bytes.remaining() + " bytes");
    }
    return n;
  }
}
