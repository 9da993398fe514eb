package dev.loadprof.parse;

import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Splits text into lines in a growing char buffer and hands each to a {@link Lines} handler in
 * place (no String per line). It numbers the lines, accepts CRLF, skips lines longer than a bound
 * (reporting their start once, to bound memory), and tells the handler how the text ended: a last
 * line without a line end (perf ends every line with one, so it was cut), damage that the input
 * stream knows of, or a read that failed. One instance per parser; not thread-safe.
 */
final class LineScanner {
  private static final int READ_CHUNK = 1 << 16;

  /** Receives the lines; each range excludes the line end. */
  interface Lines {
    /** A whole line. */
    void line(char[] b, int s, int e);

    /** A line over the length bound: its first {@code e - s} chars (at most 200). */
    void tooLong(char[] b, int s, int e);

    /** The last line, which has no line end: it was cut. */
    void cutShort(char[] b, int s, int e);

    /**
     * Reading stopped (failed or ended early): b[s, e) is the start of a line that was not read
     * to its end, possibly empty.
     */
    void stoppedWithin(char[] b, int s, int e);

    /** The input ended early, as its stream says (e.g. a cut gzip member). */
    void damaged(long lineNumber, String damage);
  }

  private final int maxLineChars;
  private char[] buf = new char[READ_CHUNK * 2];
  private long lineNumber;
  /** Counts the moves of the buffer's text: a line's range stays valid until it changes. */
  private int moves;

  LineScanner(int maxLineChars) {
    this.maxLineChars = maxLineChars;
  }

  /**
   * Changes whenever the text in the buffer moves (to the front, or into a bigger buffer): while
   * it is the same, the chars of a line handed over earlier are still where they were.
   */
  int moves() {
    return moves;
  }

  /** Lines read so far, counting those before the part (see {@link #read}). */
  long lineNumber() {
    return lineNumber;
  }

  /**
   * Reads all of {@code reader}, numbering its lines after {@code linesBefore}. {@code damage}
   * is asked, for {@link PartEnd#END} only, what ended the input early (or null).
   */
  void read(Reader reader, long linesBefore, PartEnd partEnd, Supplier<String> damage,
      Lines lines) throws IOException {
    lineNumber = linesBefore;
    int start = 0; // first char of the current line
    int limit = 0; // end of the valid chars in buf
    int scan = 0; // where to go on looking for '\n'
    boolean skippingLongLine = false;
    while (true) {
      int nl = -1;
      char[] b = buf;
      for (int i = scan; i < limit; i++) {
        if (b[i] == '\n') {
          nl = i;
          break;
        }
      }
      if (nl >= 0) {
        if (skippingLongLine) {
          skippingLongLine = false; // its start was reported already
        } else if (nl - start > maxLineChars) {
          lineNumber++;
          lines.tooLong(b, start, start + Math.min(200, maxLineChars + 1));
        } else {
          int end = nl > start && b[nl - 1] == '\r' ? nl - 1 : nl;
          lineNumber++;
          lines.line(b, start, end);
        }
        start = nl + 1;
        scan = start;
        continue;
      }
      // No full line in the buffer: move the partial line to the front and read more.
      if (start > 0) {
        moves++;
        System.arraycopy(b, start, b, 0, limit - start);
        limit -= start;
        start = 0;
      }
      if (limit - start > maxLineChars && !skippingLongLine) {
        lineNumber++;
        lines.tooLong(b, start, start + Math.min(200, maxLineChars + 1));
        skippingLongLine = true;
      }
      if (skippingLongLine) {
        moves++; // the text read next overwrites the buffer from its start
        limit = 0;
      }
      if (limit == buf.length) {
        moves++;
        buf = Arrays.copyOf(buf, buf.length * 2);
        b = buf;
      }
      scan = limit;
      int n;
      try {
        n = reader.read(buf, limit, buf.length - limit);
      } catch (IOException e) {
        stopped(lines, start, limit, skippingLongLine);
        throw e;
      }
      if (n < 0) {
        break;
      }
      limit += n;
    }
    if (partEnd == PartEnd.FAILED) {
      stopped(lines, start, limit, skippingLongLine);
      return;
    }
    String damageAtEnd = partEnd == PartEnd.END ? damage.get() : null;
    if (damageAtEnd != null) {
      // Said before the cut line, so that it is the first malformed line reported.
      stopped(lines, start, limit, skippingLongLine);
      lines.damaged(lineNumber + 1, damageAtEnd);
    }
    if (limit > start && !skippingLongLine) {
      int end = limit;
      if (buf[end - 1] == '\r') {
        end--;
      }
      lineNumber++;
      lines.cutShort(buf, start, end);
    }
  }

  private void stopped(Lines lines, int start, int limit, boolean skippingLongLine) {
    lines.stoppedWithin(buf, start, skippingLongLine ? start : limit);
  }
}
