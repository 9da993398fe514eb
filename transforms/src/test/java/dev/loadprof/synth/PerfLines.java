package dev.loadprof.synth;

import java.io.Writer;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The record-header layout of {@code perf script -F comm,pid,tid,cpu,time,period,event,trace,ip,
 * sym,dso --ns}, as a regex shared by the generator's tests and any test that wants to check a
 * header line against real perf output. Column widths are part of the pattern: pid is %5d, tid
 * %-5d, cpu %03d, seconds %5d, period %10d, event name right-aligned to 18.
 */
public final class PerfLines {
  /** comm, pid, tid, cpu, seconds, nanoseconds, rest (period+event+trace, or PERF_RECORD_...). */
  public static final Pattern HEADER = Pattern.compile(
      "^(.+?) ( {0,4}-?\\d+)/(-?\\d+ *) \\[(\\d{3})\\] ( *\\d+)\\.(\\d{9}): (.*)$");
  /** The rest of a sample or tracepoint header: period, event, trace text. */
  public static final Pattern EVENT = Pattern.compile("^( *\\d+) ( *[\\w:-]+): (.*)$");

  private PerfLines() {}

  /** A parsed header line. {@code period} and {@code event} are null for PERF_RECORD_ lines. */
  public record Header(String comm, int pid, int tid, int cpu, long timeNs, Long period,
      String event, String rest) {
    public boolean isTaskEvent() {
      return event == null;
    }
  }

  /** Parses a header line, or returns null when it is not one or its columns are misaligned. */
  public static Header parse(String line) {
    Matcher m = HEADER.matcher(line);
    if (!m.matches()) {
      return null;
    }
    // Widths: "%5d/%-5d" and "%5d.%09d" (wider numbers simply take more room).
    if (m.group(2).length() < 5 || m.group(3).length() < 5 || m.group(5).length() < 5) {
      return null;
    }
    long time = Long.parseLong(m.group(5).trim()) * 1_000_000_000L + Long.parseLong(m.group(6));
    int pid = Integer.parseInt(m.group(2).trim());
    int tid = Integer.parseInt(m.group(3).trim());
    int cpu = Integer.parseInt(m.group(4));
    String rest = m.group(7);
    if (rest.startsWith("PERF_RECORD_")) {
      return new Header(m.group(1), pid, tid, cpu, time, null, null, rest);
    }
    Matcher e = EVENT.matcher(rest);
    if (!e.matches() || e.group(1).length() < 10 || e.group(2).length() < 18) {
      return null;
    }
    return new Header(m.group(1), pid, tid, cpu, time, Long.parseLong(e.group(1).trim()),
        e.group(2).trim(), e.group(3));
  }

  /**
   * A Writer that hands each complete line (without '\n') to a consumer, so tests can check a
   * 100 MB trace without holding it in memory.
   */
  public static Writer lineWriter(Consumer<String> lines) {
    return new Writer() {
      private final StringBuilder line = new StringBuilder(256);

      @Override
      public void write(char[] cbuf, int off, int len) {
        for (int i = off; i < off + len; i++) {
          char c = cbuf[i];
          if (c == '\n') {
            lines.accept(line.toString());
            line.setLength(0);
          } else {
            line.append(c);
          }
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {
        if (line.length() > 0) {
          lines.accept(line.toString());
          line.setLength(0);
        }
      }
    };
  }
}
