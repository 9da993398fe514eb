package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Reading ahead on another thread gives the consumer exactly what a direct read gives. */
class ReadAheadTest {
  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new Random(11).nextBytes(b);
    return b;
  }

  /** Reads everything with reads of varying sizes, single bytes among them. */
  private static byte[] drain(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Random sizes = new Random(5);
    byte[] buf = new byte[100_000];
    while (true) {
      if (sizes.nextInt(10) == 0) {
        int b = in.read();
        if (b < 0) {
          return out.toByteArray();
        }
        out.write(b);
        continue;
      }
      int n = in.read(buf, 0, 1 + sizes.nextInt(buf.length));
      if (n < 0) {
        return out.toByteArray();
      }
      out.write(buf, 0, n);
    }
  }

  @Test
  void theSameBytesOverManyBlocks() throws IOException {
    byte[] data = random(ReadAhead.BLOCK_BYTES * (ReadAhead.BLOCKS + 3) + 12_345);
    try (InputStream in = new ReadAhead(new ByteArrayInputStream(data))) {
      assertArrayEquals(data, drain(in));
      assertEquals(-1, in.read());
    }
  }

  @Test
  void anEmptyStreamEndsAtOnce() throws IOException {
    try (InputStream in = new ReadAhead(new ByteArrayInputStream(new byte[0]))) {
      assertEquals(-1, in.read(new byte[10], 0, 10));
    }
  }

  /** A cut .gz: every byte before the failure first, then the same exception. */
  @Test
  void bytesBeforeAFailureComeFirstThenTheFailure() throws IOException {
    byte[] data = random(ReadAhead.BLOCK_BYTES * 2 + 777);
    EOFException cut = new EOFException("Unexpected end of ZLIB input stream");
    InputStream failing = new InputStream() {
      private int at;

      @Override
      public int read() throws IOException {
        throw new AssertionError("reads are of blocks");
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (at == data.length) {
          throw cut;
        }
        int n = Math.min(Math.min(len, 1000), data.length - at);
        System.arraycopy(data, at, b, off, n);
        at += n;
        return n;
      }
    };
    try (InputStream in = new ReadAhead(failing)) {
      byte[] got = new byte[data.length];
      int filled = 0;
      IOException thrown = null;
      try {
        for (int n; (n = in.read(got, filled, got.length - filled)) > 0; ) {
          filled += n;
        }
        in.read();
      } catch (IOException e) {
        thrown = e;
      }
      assertEquals(data.length, filled);
      assertArrayEquals(data, Arrays.copyOf(got, filled));
      assertSame(cut, thrown);
    }
  }

  @Test
  void closingEarlyStopsTheThreadAndClosesTheInput() throws Exception {
    boolean[] closed = {false};
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        return 'x';
      }

      @Override
      public int read(byte[] b, int off, int len) {
        Arrays.fill(b, off, off + len, (byte) 'x');
        return len;
      }

      @Override
      public void close() {
        closed[0] = true;
      }
    };
    ReadAhead in = new ReadAhead(endless);
    assertEquals('x', in.read());
    in.close();
    assertTrue(closed[0]);
    assertFalse(in.producerAlive(), "the producer thread ended");
  }
}
