package dev.loadprof.parse;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Cuts the text of a trace into parts of about {@code partBytes} that can be parsed on their own
 * and in parallel ({@link ParallelTextParser}). A part ends with a whole line, and every part
 * after the first begins with a record's header line (a line that is not blank, not a stack line
 * and not a {@code #} comment). At that point the parser's state does not depend on the lines
 * before: the header line first sends the pending record, then starts its own.
 *
 * <p>The bytes are cut, never decoded: a line end is a line end in UTF-8 and in the bytes alike.
 */
final class TraceParts {
  /** The bytes {@code [0, length)} of one part, and how it ends. */
  record Part(byte[] bytes, int length, Kind kind) {}

  enum Kind {
    /** Cut before a header line; more parts follow. */
    CUT,
    /** The last part: the input ended. */
    END,
    /** The last part: reading failed after these bytes ({@link #failure()}). */
    FAILED,
    /**
     * No header line within {@code maxPartBytes} (a giant record or line, or not a trace): these
     * bytes and the rest of the input are to be read as one, by one parser.
     */
    REST;

    PartEnd partEnd() {
      return switch (this) {
        case CUT -> PartEnd.CUT;
        case END, REST -> PartEnd.END;
        case FAILED -> PartEnd.FAILED;
      };
    }
  }

  /** Parsed parts' buffers kept for reuse, at most this many. */
  private static final int SPARE_BUFFERS = 8;

  private final InputStream in;
  private final int partBytes;
  private final int maxPartBytes;
  /** The size of a part's buffer, unless a line needs more. */
  private final int bufferBytes;
  /**
   * Buffers of parts that are parsed, given back by the parsing threads: a new part reuses one
   * instead of a fresh megabyte, which the collector would have to allocate, zero and reclaim.
   */
  private final BlockingQueue<byte[]> spare = new ArrayBlockingQueue<>(SPARE_BUFFERS);
  private byte[] buf;
  private int length;
  /** Where to go on looking for a cut: a line end not decided yet, or where scanning stopped. */
  private int searchFrom;
  private boolean ended;
  private boolean done;
  private IOException failure;

  TraceParts(InputStream in, int partBytes, int maxPartBytes) {
    this.in = in;
    this.partBytes = partBytes;
    this.maxPartBytes = Math.max(partBytes, maxPartBytes);
    this.bufferBytes = partBytes + (partBytes >> 2);
    this.buf = new byte[bufferBytes];
  }

  /**
   * Gives back the bytes of a part that was parsed and is no longer used, for a later part
   * (thread-safe).
   */
  void recycle(Part part) {
    if (part.bytes().length == bufferBytes) {
      spare.offer(part.bytes()); // dropped when enough are kept
    }
  }

  /** What reading failed with, once a {@link Kind#FAILED} part was returned; else null. */
  IOException failure() {
    return failure;
  }

  /** The next part, or null after the last one. */
  Part next() {
    if (done) {
      return null;
    }
    while (true) {
      if (length >= partBytes) {
        int cut = findCut();
        if (cut > 0) {
          return cutAt(cut);
        }
        if (length >= maxPartBytes) {
          return last(Kind.REST);
        }
      }
      if (ended) {
        return last(Kind.END);
      }
      if (length == buf.length) {
        buf = Arrays.copyOf(buf, buf.length * 2);
      }
      try {
        int n = in.read(buf, length, buf.length - length);
        if (n < 0) {
          ended = true;
        } else {
          length += n;
        }
      } catch (IOException e) {
        failure = e;
        return last(Kind.FAILED);
      }
    }
  }

  private Part last(Kind kind) {
    done = true;
    Part part = new Part(buf, length, kind);
    buf = null;
    return part;
  }

  private Part cutAt(int cut) {
    Part part = new Part(buf, cut, Kind.CUT);
    byte[] next = length - cut <= bufferBytes ? spare.poll() : null;
    if (next == null) {
      next = new byte[Math.max(bufferBytes, length - cut)];
    }
    System.arraycopy(buf, cut, next, 0, length - cut);
    buf = next;
    length -= cut;
    searchFrom = 0;
    return part;
  }

  /**
   * The index of the first header line that starts after {@code partBytes - 1}, or -1 if none is
   * known yet (then {@link #searchFrom} marks where to go on once more bytes are read).
   */
  private int findCut() {
    byte[] b = buf;
    for (int i = Math.max(searchFrom, partBytes - 1); i < length; i++) {
      if (b[i] != '\n') {
        continue;
      }
      int start = i + 1;
      int k = start;
      while (k < length && (b[k] == ' ' || b[k] == '\t')) {
        k++;
      }
      if (k >= length || (b[k] == '\r' && k + 1 >= length)) {
        searchFrom = i; // the line is not read far enough to tell
        return -1;
      }
      boolean blank = b[k] == '\n' || (b[k] == '\r' && b[k + 1] == '\n');
      if (!blank && b[start] != '\t' && b[start] != '#') {
        return start;
      }
    }
    searchFrom = length;
    return -1;
  }
}
