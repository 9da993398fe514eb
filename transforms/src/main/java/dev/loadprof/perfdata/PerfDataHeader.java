package dev.loadprof.perfdata;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code perf script --header-only} says about a perf.data file that decoding needs: whether
 * samples carry a CPU (system-wide recordings do, per-process ones only with --sample-cpu), the
 * number of CPUs, and the time of the first and last sample (to cut time slices).
 */
public record PerfDataHeader(boolean samplesHaveCpu, boolean hasTracepoints, int cpus,
    long firstSampleNs, long lastSampleNs) implements Serializable {

  /** Runs perf on the file. */
  public static PerfDataHeader read(Path perfData) throws IOException {
    String text = PerfProcess.runForText(List.of("perf", "script", "--header-only", "-f", "-i",
        perfData.toString()), perfData.toString());
    return parse(text);
  }

  /** Parses the header text (the "# key : value" lines). */
  public static PerfDataHeader parse(String header) {
    // perf script refuses the cpu field if any event's samples lack it: a per-process recording
    // of cpu-clock with tracepoints has it only on the tracepoints (perf adds it to those).
    boolean cpu = true;
    boolean anyEvent = false;
    boolean tracepoints = false;
    int cpus = 0;
    long first = 0;
    long last = 0;
    for (String line : header.split("\n")) {
      if (line.startsWith("# event : ")) {
        int st = line.indexOf("sample_type = ");
        // A dummy event (side-band records only) has no samples to print.
        if (st >= 0 && !line.contains("name = dummy")) {
          String types = line.substring(st + "sample_type = ".length()).split(",", 2)[0];
          anyEvent = true;
          cpu &= List.of(types.trim().split("\\|")).contains("CPU");
        }
        tracepoints |= line.contains("type = 2,");
      } else if (line.startsWith("# nrcpus avail : ")) {
        cpus = Integer.parseInt(line.substring("# nrcpus avail : ".length()).trim());
      } else if (line.startsWith("# time of first sample : ")) {
        first = seconds(line.substring("# time of first sample : ".length()));
      } else if (line.startsWith("# time of last sample : ")) {
        last = seconds(line.substring("# time of last sample : ".length()));
      }
    }
    return new PerfDataHeader(cpu && anyEvent, tracepoints, cpus, first, last);
  }

  /** "2118.024455" (µs precision in the header) as ns. */
  private static long seconds(String text) {
    return new java.math.BigDecimal(text.trim()).movePointRight(9).longValue();
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
