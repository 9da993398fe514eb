package dev.loadprof.bench;

import dev.loadprof.archive.beam.TraceFingerprint;
import dev.loadprof.beam.TraceRuns;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * What finding the same trace under two run ids costs a job ({@link TraceRuns#of}): two files of
 * different sizes (no byte read), and two copies of one file (both hashed), MB each; then the
 * archive's fingerprint (SHA-256 of the decompressed text) of each .gz given, for comparison.
 * Each round touches the files, so that no fingerprint is reused. Medians of ROUNDS.
 * Usage: SameTraceCost DIR MB ROUNDS [TRACE.gz...]
 */
public final class SameTraceCost {
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    int mb = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    Path a = dir.resolve("same-a.data");
    Path copy = dir.resolve("same-copy.data");
    Path other = dir.resolve("same-other.data");
    if (!Files.exists(a) || Files.size(a) != mb * (1L << 20)) {
      write(a, mb * (1L << 20));
      Files.copy(a, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      write(other, mb * (1L << 20) + 1);
    }
    List<Double> distinct = new ArrayList<>();
    List<Double> same = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      for (Path p : List.of(a, copy, other)) {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - r));
      }
      distinct.add(timeMs(List.of(a.toString(), other.toString()), 0));
      same.add(timeMs(List.of(a.toString(), copy.toString()), 1));
    }
    System.out.printf("files of %d MB, %d rounds, medians:%n", mb, rounds);
    System.out.printf("  two files of different sizes (nothing hashed): %.1f ms%n",
        median(distinct));
    double ms = median(same);
    System.out.printf("  two copies of one file (both hashed):         %.1f ms, %.0f MB/s%n", ms,
        2 * mb / (ms / 1000));
    for (int i = 3; i < args.length; i++) {
      List<Double> text = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        TraceFingerprint.of(args[i]);
        text.add((System.nanoTime() - t0) / 1e6);
      }
      System.out.printf("  archive fingerprint (decompressed text) of %s (%d MB): %.1f ms%n",
          Path.of(args[i]).getFileName(), Files.size(Path.of(args[i])) >> 20, median(text));
    }
  }

  private static double timeMs(List<String> traces, int expectSame) throws IOException {
    long t0 = System.nanoTime();
    TraceRuns runs = TraceRuns.of(traces);
    double ms = (System.nanoTime() - t0) / 1e6;
    if (runs.notCounted().size() != expectSame) {
      throw new IllegalStateException("expected " + expectSame + " not counted: " + traces);
    }
    return ms;
  }

  private static void write(Path file, long bytes) throws IOException {
    Random random = new Random(bytes);
    byte[] buf = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long left = bytes; left > 0; left -= buf.length) {
        random.nextBytes(buf);
        out.write(buf, 0, (int) Math.min(buf.length, left));
      }
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
