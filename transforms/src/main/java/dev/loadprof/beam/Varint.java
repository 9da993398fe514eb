package dev.loadprof.beam;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Zig-zag variable-length integers, and column helpers built on them. */
final class Varint {
  private Varint() {}

  static void writeLong(DataOutputStream out, long v) throws IOException {
    long z = (v << 1) ^ (v >> 63);
    while ((z & ~0x7FL) != 0) {
      out.writeByte((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    out.writeByte((int) z);
  }

  static long readLong(DataInputStream in) throws IOException {
    long z = 0;
    int shift = 0;
    while (true) {
      int b = in.readUnsignedByte();
      z |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      shift += 7;
      if (shift > 63) {
        throw new IOException("malformed varint");
      }
    }
    return (z >>> 1) ^ -(z & 1);
  }

  static void writeInt(DataOutputStream out, int v) throws IOException {
    writeLong(out, v);
  }

  static int readInt(DataInputStream in) throws IOException {
    return (int) readLong(in);
  }

  static void writeInts(DataOutputStream out, int[] a, int n) throws IOException {
    for (int i = 0; i < n; i++) {
      writeLong(out, a[i]);
    }
  }

  static int[] readInts(DataInputStream in, int n) throws IOException {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = readInt(in);
    }
    return a;
  }

  static void writeLongs(DataOutputStream out, long[] a, int n) throws IOException {
    for (int i = 0; i < n; i++) {
      writeLong(out, a[i]);
    }
  }

  static long[] readLongs(DataInputStream in, int n) throws IOException {
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = readLong(in);
    }
    return a;
  }

  /** Sorted times as differences from the previous one (the first from {@code base}). */
  static void writeDeltas(DataOutputStream out, long[] a, int n, long base) throws IOException {
    long prev = base;
    for (int i = 0; i < n; i++) {
      writeLong(out, a[i] - prev);
      prev = a[i];
    }
  }

  static long[] readDeltas(DataInputStream in, int n, long base) throws IOException {
    long[] a = new long[n];
    long prev = base;
    for (int i = 0; i < n; i++) {
      prev += readLong(in);
      a[i] = prev;
    }
    return a;
  }
}
