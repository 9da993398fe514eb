package dev.loadprof.bench;

import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.PerfDataHeader;
import dev.loadprof.perfdata.PerfScriptDecoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Wall time to decode one perf.data with loadprof's decoder: one perf script, time slices and
 * CPU pieces, each piece on its own thread as the pipeline's splits run them. Prints per round
 * the wall time, the CPU time the perf scripts used and the load average; then medians, the
 * speed-up over one perf script within the same round, and the bytes of text produced (equal
 * for every split, or the cut is wrong).
 * Usage: DecodeThroughput FILE.data PIECES ROUNDS
 */
public final class DecodeThroughput {
  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[0]);
    int pieces = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    PerfDataHeader header = PerfDataHeader.read(data);
    DecodePiece.Kind[] kinds = DecodePiece.Kind.values();
    double[][] wall = new double[kinds.length][rounds];
    double[][] cpu = new double[kinds.length][rounds];
    long[] bytes = new long[kinds.length];
    // Rounds interleave the splits (whole, CPU, time, whole, ...) so that other work on the
    // machine falls on all of them alike; the ratios below are taken within each round.
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < kinds.length; k++) {
        List<DecodePiece> plan = DecodePiece.plan(header, kinds[k],
            kinds[k] == DecodePiece.Kind.WHOLE ? 1 : pieces);
        double cpu0 = childCpuSeconds();
        long t0 = System.nanoTime();
        bytes[k] = decodeConcurrently(data, header, plan);
        wall[k][r] = (System.nanoTime() - t0) / 1e9;
        cpu[k][r] = childCpuSeconds() - cpu0;
        System.out.printf("round %d %-5s pieces=%d  wall %6.2f s  perf script CPU %6.2f s"
            + "  load average %s%n", r + 1, kinds[k], plan.size(), wall[k][r], cpu[k][r],
            loadAverage());
      }
    }
    for (int k = 0; k < kinds.length; k++) {
      double[] speedUps = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        speedUps[r] = wall[0][r] / wall[k][r];
      }
      System.out.printf("%-5s median wall %.2f s (rounds %s), median CPU %.2f s, median"
          + " speed-up over one perf script in the same round %.2fx, text %d bytes%n", kinds[k],
          median(wall[k]), Arrays.toString(wall[k]), median(cpu[k]), median(speedUps),
          bytes[k]);
    }
  }

  private static long decodeConcurrently(Path data, PerfDataHeader header,
      List<DecodePiece> plan) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(plan.size());
    try {
      List<Future<Long>> done = new ArrayList<>();
      for (DecodePiece piece : plan) {
        done.add(pool.submit(() -> {
          CountingStream out = new CountingStream();
          PerfScriptDecoder.decode(data, header, piece, out);
          return out.count;
        }));
      }
      long bytes = 0;
      for (Future<Long> f : done) {
        bytes += f.get();
      }
      return bytes;
    } finally {
      pool.shutdown();
    }
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }

  /** CPU time (user + system) of this JVM's finished child processes: the perf scripts. */
  private static double childCpuSeconds() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // After "(comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / 100.0;
  }

  private static String loadAverage() throws IOException {
    String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return f[0] + " " + f[1] + " " + f[2];
  }

  private static final class CountingStream extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
