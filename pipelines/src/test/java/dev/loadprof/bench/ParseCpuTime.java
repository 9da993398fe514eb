package dev.loadprof.bench;

import dev.loadprof.parse.CountingSink;
import dev.loadprof.parse.PerfScriptParser;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The text parser alone on the synthetic trace of {@link StageThroughput} (32 CPUs, 4 s, call
 * chains on samples and switches), timed in the thread's CPU time, which other processes on a
 * shared machine disturb far less than wall time. Prints the median and the minimum of REPS
 * parses after 4 warm-ups. {@code bench/run.sh parse-ab} runs it for several revisions in turn.
 *
 * <p>Usage: ParseCpuTime [reps] [FILE]: FILE, plain perf script text read into memory, instead
 * of the synthetic trace (e.g. the text of a deep-stack recording, bench/deep.c).
 */
public final class ParseCpuTime {
  private ParseCpuTime() {}

  public static void main(String[] args) throws Exception {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    byte[] text = args.length > 1 && !args[1].isEmpty() ? Files.readAllBytes(Path.of(args[1]))
        : StageThroughput.traceText(32, 4);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    double[] seconds = new double[reps];
    for (int r = -4; r < reps; r++) {
      long t0 = cpu.getCurrentThreadCpuTime();
      new PerfScriptParser().read(new ByteArrayInputStream(text), "bench", new CountingSink());
      long t1 = cpu.getCurrentThreadCpuTime();
      if (r >= 0) {
        seconds[r] = (t1 - t0) / 1e9;
      }
    }
    Arrays.sort(seconds);
    System.out.printf("%.1f MB of text: parse CPU median %.3f s, min %.3f s (%d parses)%n",
        text.length / 1e6, seconds[reps / 2], seconds[0], reps);
  }
}
