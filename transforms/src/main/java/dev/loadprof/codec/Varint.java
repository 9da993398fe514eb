package dev.loadprof.codec;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Zig-zag variable-length integers on byte arrays, and column helpers built on them: the one
 * encoding of number columns, used by the Beam coders and the Avro archive alike. Coders encode a
 * whole element into a {@link Sink} and hand the stream one length-prefixed array: runners wrap
 * streams in layers whose per-byte calls cost more than the encoding itself.
 */
public final class Varint {
  private Varint() {}

  /** A growable byte array written with varints. */
  public static final class Sink {
    private byte[] buf;
    private int size;

    public Sink(int capacity) {
      buf = new byte[Math.max(16, capacity)];
    }

    public void writeLong(long v) {
      ensure(10);
      long z = (v << 1) ^ (v >> 63);
      while ((z & ~0x7FL) != 0) {
        buf[size++] = (byte) ((z & 0x7F) | 0x80);
        z >>>= 7;
      }
      buf[size++] = (byte) z;
    }

    public void writeInt(int v) {
      writeLong(v);
    }

    public void writeBoolean(boolean v) {
      ensure(1);
      buf[size++] = (byte) (v ? 1 : 0);
    }

    public void writeBytes(byte[] b, int n) {
      ensure(n);
      System.arraycopy(b, 0, buf, size, n);
      size += n;
    }

    public void writeString(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      writeInt(b.length);
      writeBytes(b, b.length);
    }

    public void writeInts(int[] a, int n) {
      for (int i = 0; i < n; i++) {
        writeLong(a[i]);
      }
    }

    public void writeLongs(long[] a, int n) {
      for (int i = 0; i < n; i++) {
        writeLong(a[i]);
      }
    }

    /** Sorted times as differences from the previous one (the first from {@code base}). */
    public void writeDeltas(long[] a, int n, long base) {
      long prev = base;
      for (int i = 0; i < n; i++) {
        writeLong(a[i] - prev);
        prev = a[i];
      }
    }

    /** The bytes written so far, without copying. */
    public java.nio.ByteBuffer toByteBuffer() {
      return java.nio.ByteBuffer.wrap(buf, 0, size).slice();
    }

    /** Writes the length, then the bytes, in two calls on the stream. */
    public void writeDelimitedTo(OutputStream out) throws IOException {
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
  public static final class Source {
    private final byte[] buf;
    private int pos;
    private final int end;

    public Source(byte[] buf) {
      this(buf, 0, buf.length);
    }

    /** Reads buf[pos, end). */
    public Source(byte[] buf, int pos, int end) {
      this.buf = buf;
      this.pos = pos;
      this.end = end;
    }

    /** Bytes not read yet. */
    public int remaining() {
      return end - pos;
    }

    /** Reads one length-prefixed array written by {@link Sink#writeDelimitedTo}. */
    public static Source readDelimitedFrom(InputStream in) throws IOException {
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

    public long readLong() throws IOException {
      long z = 0;
      for (int shift = 0; ; shift += 7) {
        if (pos >= end) {
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

    public int readInt() throws IOException {
      long v = readLong();
      if (v != (int) v) {
        throw new IOException(v + " does not fit an int");
      }
      return (int) v;
    }

    public boolean readBoolean() throws IOException {
      if (pos >= end) {
        throw new EOFException("boolean past the end of the element");
      }
      return buf[pos++] != 0;
    }

    public byte[] readBytes(int n) throws IOException {
      if (pos + n > end) {
        throw new EOFException("bytes past the end of the element");
      }
      byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return b;
    }

    public String readString() throws IOException {
      int n = readInt();
      if (pos + n > end) {
        throw new EOFException("string past the end of the element");
      }
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    public int[] readInts(int n) throws IOException {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) {
        a[i] = readInt();
      }
      return a;
    }

    public long[] readLongs(int n) throws IOException {
      long[] a = new long[n];
      for (int i = 0; i < n; i++) {
        a[i] = readLong();
      }
      return a;
    }

    public long[] readDeltas(int n, long base) throws IOException {
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
