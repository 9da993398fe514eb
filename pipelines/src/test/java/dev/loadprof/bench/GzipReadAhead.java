package dev.loadprof.bench;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Parsing a .gz trace into blocks (PerfScriptParser + BlockBuilder, the parse step's plain-Java
 * work) with gzip decompressed on the parsing thread versus on a read-ahead thread, rounds
 * interleaved; also decompression alone, the floor of the serial case. Prints per round the
 * seconds and the load average, then medians and the median of the per-round ratios.
 * Usage: GzipReadAhead FILE.gz ROUNDS
 */
public final class GzipReadAhead {
  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    long records = parse(file, false); // warm-up, both ways
    parse(file, true);
    double[] serial = new double[rounds];
    double[] ahead = new double[rounds];
    double[] inflate = new double[rounds];
    double[] ratio = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      parse(file, false);
      long t1 = System.nanoTime();
      parse(file, true);
      long t2 = System.nanoTime();
      decompressOnly(file);
      long t3 = System.nanoTime();
      serial[r] = (t1 - t0) / 1e9;
      ahead[r] = (t2 - t1) / 1e9;
      inflate[r] = (t3 - t2) / 1e9;
      ratio[r] = serial[r] / ahead[r];
      System.out.printf("round %d: same thread %.2f s, read-ahead thread %.2f s (%.2fx),"
          + " decompression alone %.2f s; load average %.1f%n", r + 1, serial[r], ahead[r],
          ratio[r], inflate[r],
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
    System.out.printf("%s: %d records; medians: same thread %.2f s (%.0f records/s),"
        + " read-ahead %.2f s (%.0f records/s), decompression alone %.2f s;"
        + " speed-up (median of per-round ratios) %.2fx%n", file.getFileName(), records,
        median(serial), records / median(serial), median(ahead), records / median(ahead),
        median(inflate), median(ratio));
  }

  private static long parse(Path file, boolean readAhead) throws IOException {
    System.setProperty("loadprof.readAhead", Boolean.toString(readAhead));
    BlockBuilder builder = new BlockBuilder("bench", file.toString(), 1_000_000_000L, null,
        block -> { });
    PerfScriptParser parser = new PerfScriptParser();
    try (InputStream in = TraceFiles.open(file)) {
      parser.read(in, file.toString(), builder);
    }
    RunInfo info = builder.finish();
    return info.health.get(TraceHealth.SAMPLE_RECORDS) + info.health.get(TraceHealth.SWITCH_RECORDS);
  }

  private static void decompressOnly(Path file) throws IOException {
    System.setProperty("loadprof.readAhead", "false");
    byte[] buf = new byte[1 << 16];
    try (InputStream in = TraceFiles.open(file)) {
      while (in.read(buf) >= 0) {
        // count nothing: the time is the figure
      }
    }
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }
}
