package dev.loadprof.parse;

import dev.loadprof.model.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a stream ahead of its consumer on a thread of its own, in blocks through a bounded queue,
 * so that decompressing a trace overlaps parsing it. The consumer sees the same bytes,
 * then the same exception at the same place: a block read before a failure (a cut .gz) is handed
 * over first. Memory is bounded by {@link #BLOCKS} blocks of {@link #BLOCK_BYTES}.
 */
final class ReadAhead extends InputStream {
  static final int BLOCK_BYTES = 1 << 18;
  static final int BLOCKS = 4;
  private static final byte[] END = new byte[0];

  private final InputStream in;
  private final BlockingQueue<byte[]> full = new ArrayBlockingQueue<>(BLOCKS);
  private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BLOCKS + 2);
  private final Thread producer;
  private volatile boolean closed;
  /** What ended the producer's reads, if not the end of the stream; written before END. */
  private volatile Throwable failure;

  private byte[] block = END;
  private int lengthOfBlock;
  private int position;
  private boolean ended;

  ReadAhead(InputStream in) {
    this.in = in;
    producer = new Thread(this::produce, "loadprof-read-ahead");
    producer.setDaemon(true);
    producer.start();
  }

  private void produce() {
    try {
      while (!closed) {
        byte[] b = free.poll();
        if (b == null) {
          b = new byte[BLOCK_BYTES];
        }
        int filled = 0;
        try {
          for (int n; filled < b.length && (n = in.read(b, filled, b.length - filled)) >= 0; ) {
            filled += n;
          }
        } catch (IOException | RuntimeException | Error e) {
          failure = e; // after the bytes read before it, as a direct read would see them
        }
        if (filled > 0) {
          handOver(b, filled);
        }
        if (failure != null || filled < b.length) {
          break;
        }
      }
    } catch (InterruptedException e) {
      return; // closed
    }
    try {
      putUntilClosed(END);
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** Queues a block; a short one is copied so that every queued array is exactly its data. */
  private void handOver(byte[] b, int filled) throws InterruptedException {
    putUntilClosed(filled == b.length ? b : Arrays.copyOf(b, filled));
  }

  private void putUntilClosed(byte[] b) throws InterruptedException {
    while (!closed && !full.offer(b, 100, TimeUnit.MILLISECONDS)) {
      // the consumer is slower: wait for room
    }
  }

  /** Makes the next block current; false at the end (or throws what ended the reads). */
  private boolean nextBlock() throws IOException {
    if (ended) {
      return false;
    }
    if (block != END && block.length == BLOCK_BYTES) {
      free.offer(block);
    }
    try {
      block = full.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading ahead");
    }
    position = 0;
    lengthOfBlock = block.length;
    if (block == END) {
      ended = true;
      if (failure != null) {
        throw Failures.asIOException(failure);
      }
      return false;
    }
    return true;
  }

  @Override
  public int read() throws IOException {
    if (position == lengthOfBlock && !nextBlock()) {
      return -1;
    }
    return block[position++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (position == lengthOfBlock && !nextBlock()) {
      return -1;
    }
    int n = Math.min(len, lengthOfBlock - position);
    System.arraycopy(block, position, b, off, n);
    position += n;
    return n;
  }

  @Override
  public int available() {
    return lengthOfBlock - position;
  }

  boolean producerAlive() {
    return producer.isAlive();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    producer.interrupt();
    full.clear();
    try {
      producer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    in.close();
  }
}
