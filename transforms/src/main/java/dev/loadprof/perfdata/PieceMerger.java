package dev.loadprof.perfdata;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges the texts of CPU pieces (each sorted by time, as perf script prints) into one text
 * sorted by time, record by record. A record is its header line and the stack lines and blank
 * line under it. At equal times the lower piece goes first.
 */
public final class PieceMerger {
  private PieceMerger() {}

  public static void merge(List<BufferedReader> pieces, Writer out) throws IOException {
    PriorityQueue<Cursor> queue = new PriorityQueue<>((a, b) -> a.time != b.time
        ? Long.compare(a.time, b.time) : Integer.compare(a.index, b.index));
    for (int i = 0; i < pieces.size(); i++) {
      Cursor c = new Cursor(pieces.get(i), i);
      if (c.advance()) {
        queue.add(c);
      }
    }
    while (!queue.isEmpty()) {
      Cursor c = queue.poll();
      out.write(c.record.toString());
      if (c.advance()) {
        queue.add(c);
      }
    }
    out.flush();
  }

  /** The next record of one piece. */
  private static final class Cursor {
    final BufferedReader in;
    final int index;
    final StringBuilder record = new StringBuilder();
    String lookahead;
    long time;

    Cursor(BufferedReader in, int index) throws IOException {
      this.in = in;
      this.index = index;
      this.lookahead = in.readLine();
    }

    /** Reads the next record into {@link #record}; false at the end of the piece. */
    boolean advance() throws IOException {
      record.setLength(0);
      // Lines before the first header (none in perf script output) ride with the next record.
      while (lookahead != null && (lookahead.isEmpty() || lookahead.charAt(0) == '\t'
          || lookahead.charAt(0) == '#')) {
        record.append(lookahead).append('\n');
        lookahead = in.readLine();
      }
      if (lookahead == null) {
        return record.length() > 0 && keepTail();
      }
      time = PerfScriptDecoder.timeOf(lookahead);
      record.append(lookahead).append('\n');
      lookahead = in.readLine();
      while (lookahead != null && (lookahead.isEmpty() || lookahead.charAt(0) == '\t')) {
        record.append(lookahead).append('\n');
        lookahead = in.readLine();
      }
      return true;
    }

    private boolean keepTail() {
      time = Long.MAX_VALUE;
      return true;
    }
  }
}
