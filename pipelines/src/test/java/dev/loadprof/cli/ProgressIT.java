package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.pipelines.TerminalJob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line through ./loadprof on a long analyze (a 330 MB synthetic trace):
 * on a terminal (a pty from {@code script}) it is redrawn at least every second until the job
 * ends; piped, stderr holds none of it unless --progress asks; on embedded Flink the job's own
 * operators count it in the CLI's JVM, as on the DirectRunner.
 */
class ProgressIT {
  private static final Path LAUNCHER = Paths.get("..", "loadprof").toAbsolutePath().normalize();

  @TempDir static Path dir;
  static Path trace;

  @BeforeAll
  static void writeLongTrace() throws Exception {
    trace = TerminalJob.writeLongTrace(dir.resolve("long.txt"));
  }

  /**
   * The trace arrives on a pipe in fifteen parts a second apart: the job lasts over 15 s however
   * fast the analysis is (the file alone takes ~2 s in the CLI's JVM, under the progress line's
   * 2 s).
   */
  private static final int PARTS = 15;

  @Test
  void onATerminalTheProgressIsRedrawnAtLeastEverySecond() throws Exception {
    StringBuilder feed = new StringBuilder(TerminalJob.slowFeed(trace, PARTS, dir));
    feed.append(" | bash ").append(LAUNCHER).append(" analyze -o ").append(dir.resolve("tty"))
        .append(" -");
    TerminalJob job = TerminalJob.run(feed.toString(), Duration.ofMinutes(5));
    assertEquals(0, job.exit(), job.text());
    assertThat(job.text(), containsString("reading"));
    assertThat(job.text(), containsString(" MB/s"));
    assertThat(job.text(), containsString("Real time at load:"));
    assertThat("redraws " + job.redrawsMs(), job.redrawsMs().size(), greaterThan(5));
    assertThat("redraws " + job.redrawsMs(), job.longestGapMs(), lessThanOrEqualTo(1_000L));
  }

  @Test
  void pipedStderrHoldsNoProgress() throws Exception {
    Process p = new ProcessBuilder("bash", LAUNCHER.toString(), "analyze", "-o",
        dir.resolve("piped").toString(), trace.toString()).start();
    p.getOutputStream().close();
    byte[] stdout = p.getInputStream().readAllBytes();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(true, p.waitFor(5, TimeUnit.MINUTES));
    assertEquals(0, p.exitValue(), stderr);
    assertThat(new String(stdout, StandardCharsets.UTF_8), containsString("Real time at load:"));
    assertThat(stderr, not(containsString("\r")));
    assertThat(stderr, not(containsString("MB/s")));
    assertThat(stderr, containsString("sample records")); // the log lines are still there
  }

  @Test
  void onEmbeddedFlinkTheStagesAreCountedByTheJobsOperators() throws Exception {
    Process p = new ProcessBuilder("bash", LAUNCHER.toString(), "analyze", "--progress",
        "--runner", "flink", "-o", dir.resolve("flink").toString(), trace.toString()).start();
    p.getOutputStream().close();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(true, p.waitFor(5, TimeUnit.MINUTES));
    assertEquals(0, p.exitValue(), stderr);
    assertThat(stderr, containsString("\rreading"));
    assertThat(stderr, containsString(" MB/s"));
    assertThat(stderr, containsString("\rjoining"));
    assertThat(stderr, containsString(" blocks"));
  }
}
