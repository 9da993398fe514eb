package dev.loadprof.beam;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Zig-zag variable-length integers on byte arrays, and column helpers built on them. Coders
 * encode a whole element into a {@link Sink} and hand the stream one length-prefixed array:
 * runners wrap streams in layers whose per-byte calls cost more than the encoding itself.
 */
final class Varint {
  private Varint() {}

  /** A growable byte array written with varints. */
  static final class Sink {
    private byte[] buf;
    private int size;

    Sink(int capacity) {
      buf = new byte[Math.max(16, capacity)];
    }

    void writeLong(long v) {
      ensure(10);
      long z = (v << 1) ^ (v >> 63);
      while ((z & ~0x7FL) != 0) {
        buf[size++] = (byte) ((z & 0x7F) | 0x80);
        z >>>= 7;
      }
      buf[size++] = (byte) z;
    }

    void writeInt(int v) {
      writeLong(v);
    }

    void writeBoolean(boolean v) {
      ensure(1);
      buf[size++] = (byte) (v ? 1 : 0);
    }

    void writeBytes(byte[] b, int n) {
      ensure(n);
      System.arraycopy(b, 0, buf, size, n);
      size += n;
    }

    void writeString(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      writeInt(b.length);
      writeBytes(b, b.length);
    }

    void writeInts(int[] a, int n) {
      for (int i = 0; i < n; i++) {
        writeLong(a[i]);
      }
    }

    void writeLongs(long[] a, int n) {
      for (int i = 0; i < n; i++) {
        writeLong(a[i]);
      }
    }

    /** Sorted times as differences from the previous one (the first from {@code base}). */
    void writeDeltas(long[] a, int n, long base) {
      long prev = base;
      for (int i = 0; i < n; i++) {
        writeLong(a[i] - prev);
        prev = a[i];
      }
    }

    /** Writes the length, then the bytes, in two calls on the stream. */
    void writeDelimitedTo(OutputStream out) throws IOException {
      byte[] len = new byte[10];
      int n = 0;
      long z = size;
      while ((z & ~0x7FL) != 0) {
        len[n++] = (byte) ((z & 0x7F) | 0x80);
        z >>>= 7;
      }
      len[n++] = (byte) z;
      out.write(len, 0, n);
      out.write(buf, 0, size);
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }
  }

  /** Reads what a {@link Sink} wrote. */
  static final class Source {
    private final byte[] buf;
    private int pos;

    Source(byte[] buf) {
      this.buf = buf;
    }

    /** Reads one length-prefixed array written by {@link Sink#writeDelimitedTo}. */
    static Source readDelimitedFrom(InputStream in) throws IOException {
      long len = 0;
      for (int shift = 0; ; shift += 7) {
        int b = in.read();
        if (b < 0) {
          throw new EOFException("truncated element length");
        }
        len |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
        if (shift > 28) {
          throw new IOException("malformed element length");
        }
      }
      byte[] data = new byte[Math.toIntExact(len)];
      int read = 0;
      while (read < data.length) {
        int n = in.read(data, read, data.length - read);
        if (n < 0) {
          throw new EOFException("truncated element: " + read + " of " + data.length + " bytes");
        }
        read += n;
      }
      return new Source(data);
    }

    long readLong() throws IOException {
      long z = 0;
      for (int shift = 0; ; shift += 7) {
        if (pos >= buf.length) {
          throw new EOFException("varint past the end of the element");
        }
        int b = buf[pos++];
        z |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
        if (shift > 63) {
          throw new IOException("malformed varint");
        }
      }
      return (z >>> 1) ^ -(z & 1);
    }

    int readInt() throws IOException {
      return (int) readLong();
    }

    boolean readBoolean() throws IOException {
      if (pos >= buf.length) {
        throw new EOFException("boolean past the end of the element");
      }
      return buf[pos++] != 0;
    }

    byte[] readBytes(int n) throws IOException {
      if (pos + n > buf.length) {
        throw new EOFException("bytes past the end of the element");
      }
      byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return b;
    }

    String readString() throws IOException {
      int n = readInt();
      if (pos + n > buf.length) {
        throw new EOFException("string past the end of the element");
      }
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    int[] readInts(int n) throws IOException {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) {
        a[i] = readInt();
      }
      return a;
    }

    long[] readLongs(int n) throws IOException {
      long[] a = new long[n];
      for (int i = 0; i < n; i++) {
        a[i] = readLong();
      }
      return a;
    }

    long[] readDeltas(int n, long base) throws IOException {
      long[] a = new long[n];
      long prev = base;
      for (int i = 0; i < n; i++) {
        prev += readLong();
        a[i] = prev;
      }
      return a;
    }
  }
}
