package dev.loadprof.bench;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.ParallelTextParser;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The parse step's plain-Java work (text to blocks: ParallelTextParser + BlockBuilder) on one
 * trace with 1 parsing thread versus N, rounds interleaved. Prints per round the seconds, the
 * ratio and the load average, then medians and the median of the per-round ratios.
 * Usage: ParseThreads FILE ROUNDS [N]
 */
public final class ParseThreads {
  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    long records = parse(file, 1); // warm-up, both ways
    parse(file, threads);
    double[] one = new double[rounds];
    double[] many = new double[rounds];
    double[] ratio = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      parse(file, 1);
      long t1 = System.nanoTime();
      parse(file, threads);
      long t2 = System.nanoTime();
      one[r] = (t1 - t0) / 1e9;
      many[r] = (t2 - t1) / 1e9;
      ratio[r] = one[r] / many[r];
      System.out.printf("round %d: 1 thread %.2f s, %d threads %.2f s (%.2fx); load average"
          + " %.1f%n", r + 1, one[r], threads, many[r], ratio[r],
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
    System.out.printf("%s: %d records; medians: 1 thread %.2f s (%.0f records/s), %d threads"
        + " %.2f s (%.0f records/s); speed-up (median of per-round ratios) %.2fx%n",
        file.getFileName(), records, median(one), records / median(one), threads, median(many),
        records / median(many), median(ratio));
  }

  private static long parse(Path file, int threads) throws IOException {
    BlockBuilder builder = new BlockBuilder("bench", file.toString(), 1_000_000_000L, null,
        block -> { });
    ParallelTextParser parser = new ParallelTextParser(threads);
    try (InputStream in = TraceFiles.open(file)) {
      parser.read(in, file.toString(), builder);
    }
    RunInfo info = builder.finish();
    return info.health.get(TraceHealth.SAMPLE_RECORDS)
        + info.health.get(TraceHealth.SWITCH_RECORDS);
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }
}
