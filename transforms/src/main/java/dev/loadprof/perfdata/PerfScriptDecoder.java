package dev.loadprof.perfdata;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a perf.data file, or one piece of it, into the perf script text loadprof reads: the
 * fields of the recommended layout, with the cpu column and tracepoint payloads only when the
 * recording has them, and task and context-switch records.
 */
public final class PerfScriptDecoder {
  private PerfScriptDecoder() {}

  /** The perf script command for a piece of the recording. */
  public static List<String> command(Path perfData, PerfDataHeader header, DecodePiece piece) {
    List<String> cmd = new ArrayList<>(List.of("perf", "script", "-f", "-i", perfData.toString(),
        "--ns", "--show-task-events", "--show-switch-events", "--show-lost-events", "-F",
        fields(header)));
    cmd.addAll(piece.perfArgs());
    return cmd;
  }

  /** -F fields: perf refuses a field the samples do not have (cpu in per-process recordings). */
  static String fields(PerfDataHeader header) {
    return "comm,pid,tid," + (header.samplesHaveCpu() ? "cpu," : "") + "time,period,event,"
        + (header.hasTracepoints() ? "trace," : "") + "ip,sym,dso";
  }

  /**
   * Runs perf script for the piece and writes its text to {@code out}. In a time slice, perf
   * prints every side-band record (PERF_RECORD_COMM, FORK, SWITCH, ...) whatever --time says, so
   * only those in the slice are kept: the slices then add up to the whole text exactly.
   */
  public static void decode(Path perfData, PerfDataHeader header, DecodePiece piece,
      OutputStream out) throws IOException {
    List<String> cmd = command(perfData, header, piece);
    Process p = PerfProcess.start(cmd);
    p.getOutputStream().close();
    Thread err = PerfProcess.drainLater(p.getErrorStream());
    Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (piece.kind() == DecodePiece.Kind.TIME && isSideBand(line)
            && !piece.owns(timeOf(line))) {
          continue;
        }
        w.write(line);
        w.write('\n');
      }
    } finally {
      w.flush();
    }
    PerfProcess.waitFor(p, err, cmd, perfData.toString());
  }

  private static boolean isSideBand(String line) {
    return !line.isEmpty() && line.charAt(0) != '\t' && line.contains(" PERF_RECORD_");
  }

  /**
   * The time of a record header line ("comm pid/tid [cpu] s.nnnnnnnnn: ..."), in ns; the first
   * blank-preceded "digits.digits:" token. Long.MIN_VALUE if none.
   */
  public static long timeOf(String line) {
    int n = line.length();
    for (int i = 1; i < n; i++) {
      if (line.charAt(i - 1) != ' ' || !Character.isDigit(line.charAt(i))) {
        continue;
      }
      int j = i;
      long sec = 0;
      while (j < n && Character.isDigit(line.charAt(j))) {
        sec = sec * 10 + (line.charAt(j++) - '0');
      }
      if (j >= n || line.charAt(j) != '.') {
        continue;
      }
      int fracStart = ++j;
      long frac = 0;
      while (j < n && Character.isDigit(line.charAt(j))) {
        frac = frac * 10 + (line.charAt(j++) - '0');
      }
      int digits = j - fracStart;
      if (digits == 0 || digits > 9 || j >= n || line.charAt(j) != ':') {
        continue;
      }
      for (int d = digits; d < 9; d++) {
        frac *= 10;
      }
      return sec * 1_000_000_000L + frac;
    }
    return Long.MIN_VALUE;
  }
}
