package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line of an analyze on the real local Flink session cluster, where the readers run
 * in the TaskManagers: through ./loadprof on a terminal (a pty from {@code script}) it is redrawn
 * at least every second from submission to the end, with the stages read from the job's metrics
 * in the cluster's REST API; piped, stderr holds none of it.
 */
class ProgressOnFlinkClusterIT {
  private static final Path LAUNCHER = LocalFlinkCluster.HOME.resolve("loadprof");

  @TempDir static Path dir;
  private static Path trace;
  private static LocalFlinkCluster cluster;

  @BeforeAll
  static void writeLongTraceAndStartCluster() throws Exception {
    LocalFlinkCluster.assumeClusterTests();
    trace = TerminalJob.writeLongTrace(dir.resolve("long.txt"));
    LocalFlinkCluster.awaitRestPortFree(Duration.ofMinutes(15));
    cluster = LocalFlinkCluster.started("flink-cluster-progress-it");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    LocalFlinkCluster.stopIfAny(cluster);
  }

  @Test
  void onATerminalTheClusterJobsProgressIsRedrawnAtLeastEverySecond() throws Exception {
    TerminalJob job = TerminalJob.run("bash " + LAUNCHER + " analyze --runner flink-cluster -o "
        + dir.resolve("tty") + " " + trace, Duration.ofMinutes(10));
    assertEquals(0, job.exit(), job.text());
    assertThat(job.text(), containsString("Real time at load:"));
    // the stages as the job's metrics on the cluster show them
    assertThat(job.text(), containsString("\rreading"));
    assertThat(job.text(), containsString(" records/s"));
    assertThat(job.text(), containsString("\rjoining"));
    assertThat("redraws " + job.redrawsMs(), job.redrawsMs().size(), greaterThan(10));
    // Every second, but one late redraw of up to 2 s: here the cluster's JobManager and
    // TaskManager, the client and this test share 2 cores, and at the job's submission one
    // redraw reached this reader 1,465 ms after the one before (the next one 36 ms after it:
    // the ticker caught up), once in CI. A line that stops being redrawn still fails.
    List<Long> gaps = job.gapsLongestFirst();
    assertThat("redraws " + job.redrawsMs(), gaps.get(0), lessThanOrEqualTo(2_000L));
    assertThat("redraws " + job.redrawsMs(), gaps.get(1), lessThanOrEqualTo(1_000L));
  }

  @Test
  void pipedStderrHoldsNoProgress() throws Exception {
    Process p = new ProcessBuilder("bash", LAUNCHER.toString(), "analyze", "--runner",
        "flink-cluster", "-o", dir.resolve("piped").toString(), trace.toString()).start();
    p.getOutputStream().close();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(true, p.waitFor(10, TimeUnit.MINUTES));
    assertEquals(0, p.exitValue(), stderr);
    assertThat(stderr, not(containsString("\r")));
    assertThat(stderr, not(containsString("records/s")));
    assertThat(stderr, not(containsString("submitting")));
  }
}
