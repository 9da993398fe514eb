package dev.loadprof.bench;

import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.PerfDataHeader;
import dev.loadprof.perfdata.PerfScriptDecoder;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Wall time to decode one perf.data with loadprof's decoder: one perf script, time slices and
 * CPU pieces, each piece on its own thread as the pipeline's splits run them. Prints the median
 * of ROUNDS rounds and the bytes of text produced (equal for every split, or the cut is wrong).
 * Usage: DecodeThroughput FILE.data PIECES ROUNDS
 */
public final class DecodeThroughput {
  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[0]);
    int pieces = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    PerfDataHeader header = PerfDataHeader.read(data);
    for (DecodePiece.Kind kind : DecodePiece.Kind.values()) {
      List<DecodePiece> plan = DecodePiece.plan(header, kind, kind == DecodePiece.Kind.WHOLE
          ? 1 : pieces);
      double[] seconds = new double[rounds];
      long bytes = 0;
      for (int r = 0; r < rounds; r++) {
        ExecutorService pool = Executors.newFixedThreadPool(plan.size());
        long t0 = System.nanoTime();
        List<Future<Long>> done = new ArrayList<>();
        for (DecodePiece piece : plan) {
          done.add(pool.submit(() -> {
            CountingStream out = new CountingStream();
            PerfScriptDecoder.decode(data, header, piece, out);
            return out.count;
          }));
        }
        bytes = 0;
        for (Future<Long> f : done) {
          bytes += f.get();
        }
        seconds[r] = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
      }
      Arrays.sort(seconds);
      System.out.printf("%-5s pieces=%d  median %.2f s  (rounds %s)  text %d bytes%n", kind,
          plan.size(), seconds[rounds / 2], Arrays.toString(seconds), bytes);
    }
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
