package dev.loadprof.parse;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses gzip the way {@code zcat} does, but never silently: every member in turn, all that
 * decompresses of a member cut short or corrupt, and then it stops and says exactly where and why
 * in {@link #damage()}. Bytes after the last member that are not gzip (a plain text appended, or
 * garbage) are reported the same way, not dropped. ({@link java.util.zip.GZIPInputStream} throws
 * away what it inflated before a cut, and ignores trailing bytes.)
 */
public final class GzipText extends InputStream {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private final InputStream in;
  private final byte[] input = new byte[TraceFiles.BUFFER_BYTES];
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private int inputLength;
  private int inputPos;
  /** Compressed bytes consumed so far: the offset of the next byte of {@link #in}. */
  private long offset;
  private long members;
  private boolean inMember;
  private boolean done;
  private String damage;

  /** @param in the compressed bytes, starting with a gzip header */
  public GzipText(InputStream in) {
    this.in = in;
  }

  /** What ended the input early, with the compressed byte offset; null if it ended cleanly. */
  public String damage() {
    return damage;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] out, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!done) {
      if (!inMember && !startMember()) {
        return -1;
      }
      try {
        int n = inflater.inflate(out, off, len);
        if (n > 0) {
          crc.update(out, off, n);
          return n;
        }
      } catch (DataFormatException e) {
        stop("the gzip data is corrupt at compressed byte " + position() + " ("
            + e.getMessage() + ")");
        return -1;
      }
      if (inflater.finished()) {
        endMember();
      } else if (inflater.needsInput()) {
        inputPos = inputLength - inflater.getRemaining();
        if (!fill()) {
          stop("the input ends early: the gzip data is cut at byte " + offset
              + " (everything up to there was decompressed and analyzed)");
          return -1;
        }
        inflater.setInput(input, inputPos, inputLength - inputPos);
      } else if (inflater.needsDictionary()) {
        stop("the gzip data needs a preset dictionary at byte " + position());
        return -1;
      }
    }
    return -1;
  }

  /** Reads the next member's header; false at the clean end of the input or on damage. */
  private boolean startMember() throws IOException {
    long start = offset - (inputLength - inputPos);
    int id1 = next();
    if (id1 < 0) {
      done = true;
      if (members == 0) {
        stop("the input is empty");
      }
      return false;
    }
    int id2 = next();
    if (id1 != 0x1f || id2 != 0x8b) {
      long rest = 1 + (id2 < 0 ? 0 : 1) + drain();
      stop(rest + " bytes after the end of the gzip data (from byte " + start
          + ") are not gzip and were not read");
      return false;
    }
    int method = next();
    int flags = next();
    for (int i = 0; i < 6; i++) {
      next(); // mtime, xfl, os
    }
    if (method != 8) {
      stop("gzip member at byte " + start + " has unknown compression method " + method);
      return false;
    }
    if ((flags & FEXTRA) != 0) {
      int xlen = next() | (next() << 8);
      for (int i = 0; i < xlen; i++) {
        next();
      }
    }
    if ((flags & FNAME) != 0) {
      skipZeroTerminated();
    }
    if ((flags & FCOMMENT) != 0) {
      skipZeroTerminated();
    }
    if ((flags & FHCRC) != 0) {
      next();
      next();
    }
    if (inputPos > inputLength || (inputPos == inputLength && !fill())) {
      stop("the input ends early: the gzip header at byte " + start + " is cut");
      return false;
    }
    inflater.reset();
    crc.reset();
    inflater.setInput(input, inputPos, inputLength - inputPos);
    inMember = true;
    members++;
    return true;
  }

  /** The trailer: CRC-32 and size of the member's data; a mismatch is damage. */
  private void endMember() throws IOException {
    inputPos = inputLength - inflater.getRemaining();
    long expectedCrc = 0;
    for (int i = 0; i < 4; i++) {
      int b = next();
      if (b < 0) {
        stop("the input ends early: the gzip trailer is cut at byte " + offset);
        return;
      }
      expectedCrc |= (long) b << (8 * i);
    }
    for (int i = 0; i < 4; i++) {
      if (next() < 0) {
        stop("the input ends early: the gzip trailer is cut at byte " + offset);
        return;
      }
    }
    inMember = false;
    if (expectedCrc != crc.getValue()) {
      stop("the gzip data is corrupt: CRC mismatch of the member ending at byte " + position());
    }
  }

  private void skipZeroTerminated() throws IOException {
    int b;
    do {
      b = next();
    } while (b > 0);
  }

  private long position() {
    return offset - (inflater.getRemaining());
  }

  /** The next raw byte, or -1 at the end of the input. */
  private int next() throws IOException {
    if (inputPos >= inputLength && !fill()) {
      inputPos = inputLength + 1; // marks a cut header for startMember
      return -1;
    }
    return input[inputPos++] & 0xff;
  }

  /** Refills the input buffer from its start; false at the end of the input. */
  private boolean fill() throws IOException {
    int n = in.read(input, 0, input.length);
    if (n <= 0) {
      inputLength = 0;
      inputPos = 0;
      return false;
    }
    inputLength = n;
    inputPos = 0;
    offset += n;
    return true;
  }

  /** Counts and discards the rest of the input. */
  private long drain() throws IOException {
    long rest = Math.max(0, inputLength - inputPos);
    inputPos = inputLength;
    byte[] skip = new byte[8192];
    for (int n; (n = in.read(skip)) > 0; ) {
      rest += n;
    }
    return rest;
  }

  private void stop(String why) {
    done = true;
    inMember = false;
    if (damage == null) {
      damage = why;
    }
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    in.close();
  }
}
