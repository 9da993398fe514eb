package dev.loadprof.bench;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.load.CpuTimeline;
import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.parse.CountingSink;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.synth.SyntheticTrace;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Throughput of each plain-Java stage on one synthetic trace held in memory, single-threaded:
 * parse alone, parse + blocks, + run intervals, + load join. Each configuration runs several
 * times; the median is reported. A stage's own cost is the difference to the previous line.
 *
 * <p>Usage: StageThroughput [cpus] [seconds] [repetitions]
 */
public final class StageThroughput {
  private static final long WINDOW_NS = 1_000_000_000L;

  /**
   * The benchmarks' synthetic trace as perf script text: 0.5 s serial, {@code seconds} on all
   * {@code cpus}, 0.5 s serial, with call chains, wakeups and this VM's lost idle-to-task switches.
   */
  static byte[] traceText(int cpus, int seconds) throws java.io.IOException {
    SyntheticTrace trace = SyntheticTrace.builder().cpus(cpus).seed(7)
        .process(4242, "bench", 0)
        .serial(500_000_000L, "serial_work")
        .parallel(cpus, seconds * 1_000_000_000L, "parallel_work")
        .serial(500_000_000L, "tail_work")
        .wakeups(true)
        .dropIdleToTaskSwitches(c -> c % 2 == 1)
        .build();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (Writer w = new OutputStreamWriter(buf, StandardCharsets.UTF_8)) {
      trace.writeTo(w);
    }
    return buf.toByteArray();
  }

  public static void main(String[] args) throws Exception {
    int cpus = args.length > 0 ? Integer.parseInt(args[0]) : 32;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    byte[] text = traceText(cpus, seconds);
    long events = countEvents(text);
    System.out.printf("trace: %d CPUs, %.1f MB of perf script text, %d records%n", cpus,
        text.length / 1e6, events);
    System.out.printf("%-34s %10s %12s %10s%n", "stage (cumulative)", "median s", "records/s",
        "MB/s");
    String[] names = {"1 parse", "2 + blocks per (CPU, window)", "3 + run intervals",
        "4 + load join and aggregation"};
    // Rounds interleave the stages, so that drift on a shared machine hits all of them alike.
    int warmups = 2;
    double[][] times = new double[names.length][reps];
    for (int r = 0; r < warmups + reps; r++) {
      for (int stage = 0; stage < names.length; stage++) {
        long t0 = System.nanoTime();
        runStage(stage, text);
        if (r >= warmups) {
          times[stage][r - warmups] = (System.nanoTime() - t0) / 1e9;
        }
      }
    }
    double prev = 0;
    for (int stage = 0; stage < names.length; stage++) {
      double median = median(times[stage]);
      double own = median - prev;
      System.out.printf("%-34s %10.3f %12.0f %10.1f   this stage alone: %.3f s%s%n",
          names[stage], median, events / median, text.length / 1e6 / median, own,
          own > 0 ? String.format(", %.0f records/s", events / own) : " (within noise)");
      prev = median;
    }
  }

  private static void runStage(int stage, byte[] text) throws Exception {
    ByteArrayInputStream in = new ByteArrayInputStream(text);
    switch (stage) {
      case 0 -> new PerfScriptParser().read(in, "bench", new CountingSink());
      case 1 -> {
        BlockBuilder b = new BlockBuilder("bench", "bench", WINDOW_NS, null, block -> { });
        new PerfScriptParser().read(in, "bench", b);
        b.finish();
      }
      case 2 -> {
        BlockBuilder b = new BlockBuilder("bench", "bench", WINDOW_NS, null,
            block -> CpuTimeline.replay(block, true));
        new PerfScriptParser().read(in, "bench", b);
        b.finish();
      }
      default -> InMemoryAnalysis.of(new PerfScriptParser(), in, "bench", WINDOW_NS);
    }
  }

  private static long countEvents(byte[] text) throws Exception {
    CountingSink sink = new CountingSink();
    new PerfScriptParser().read(new ByteArrayInputStream(text), "bench", sink);
    return sink.events;
  }

  private static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
