package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.synth.SyntheticTrace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A loadprof command run on a terminal (a pty from {@code script}), with the times at which its
 * progress line was redrawn: what the progress tests time, on one machine and on a cluster.
 *
 * @param text everything the terminal showed
 * @param redrawsMs when a redraw ("\r" then a stage name) arrived, from the start, one per read
 * @param jobMs how long the command ran
 */
public record TerminalJob(int exit, String text, List<Long> redrawsMs, long jobMs) {

  /** Runs the shell command under script and waits for it (fails the test on a timeout). */
  public static TerminalJob run(String command, Duration timeout)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder("script", "-qfc", command, "/dev/null")
        .redirectErrorStream(true).start();
    p.getOutputStream().close();
    List<Long> redrawsMs = new ArrayList<>();
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    try (InputStream in = p.getInputStream()) {
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) {
        all.write(buf, 0, n);
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\r' && i + 1 < n && Character.isLetter(buf[i + 1])) {
            redrawsMs.add((System.nanoTime() - t0) / 1_000_000);
            break; // one redraw per read is enough to time them
          }
        }
      }
    }
    assertEquals(true, p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS), command);
    TerminalJob job = new TerminalJob(p.exitValue(), all.toString(StandardCharsets.UTF_8),
        redrawsMs, (System.nanoTime() - t0) / 1_000_000);
    System.out.printf("job %d ms; %d redraws from %s to %s ms; longest gap %d ms%n", job.jobMs,
        redrawsMs.size(), redrawsMs.isEmpty() ? "-" : redrawsMs.get(0),
        redrawsMs.isEmpty() ? "-" : redrawsMs.get(redrawsMs.size() - 1), job.longestGapMs());
    return job;
  }

  /**
   * A shell command that writes {@code trace} to its stdout in {@code parts} parts a second
   * apart (the parts are files in {@code dir}): a job that reads it lasts over that many
   * seconds however fast the analysis is.
   */
  public static String slowFeed(Path trace, int parts, Path dir) throws IOException {
    byte[] all = Files.readAllBytes(trace);
    StringBuilder feed = new StringBuilder("(");
    for (int i = 0; i < parts; i++) {
      Path part = dir.resolve("part-" + i);
      Files.write(part, java.util.Arrays.copyOfRange(all, (int) ((long) all.length * i / parts),
          (int) ((long) all.length * (i + 1) / parts)));
      feed.append("cat ").append(part).append("; sleep 1; ");
    }
    return feed.append(")").toString();
  }

  /** The longest time between two redraws. */
  public long longestGapMs() {
    List<Long> gaps = gapsLongestFirst();
    return gaps.isEmpty() ? 0 : gaps.get(0);
  }

  /** The gaps between redraws as they reached the reader, the longest first. */
  public List<Long> gapsLongestFirst() {
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < redrawsMs.size(); i++) {
      gaps.add(redrawsMs.get(i) - redrawsMs.get(i - 1));
    }
    gaps.sort(java.util.Comparator.reverseOrder());
    return gaps;
  }

  /**
   * A long synthetic trace (330 MB: 64 CPUs, 1 s serial, 6 s on 64 threads, 1 s serial), long
   * enough for many redraws.
   */
  public static Path writeLongTrace(Path file) throws IOException {
    return writeLongTrace(file, 6);
  }

  /** The same trace with {@code parallelSeconds} of its 64 CPUs busy (~55 MB a second). */
  public static Path writeLongTrace(Path file, int parallelSeconds) throws IOException {
    long second = 1_000_000_000L;
    SyntheticTrace synthetic = SyntheticTrace.builder().cpus(64).seed(3)
        .process(7000, "bigjob", 0)
        .serial(second, "serial_head")
        .parallel(64, parallelSeconds * second, "parallel_body")
        .serial(second, "serial_tail")
        .build();
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      synthetic.writeTo(w);
    }
    return file;
  }
}
