package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loadprof.synth.SyntheticTrace;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
    assumeFalse(Boolean.getBoolean("loadprof.skipCluster"),
        "Flink session cluster tests skipped (-Dloadprof.skipCluster=true)");
    trace = dir.resolve("long.txt");
    long second = 1_000_000_000L;
    SyntheticTrace synthetic = SyntheticTrace.builder().cpus(64).seed(3)
        .process(7000, "bigjob", 0)
        .serial(second, "serial_head")
        .parallel(64, 6 * second, "parallel_body")
        .serial(second, "serial_tail")
        .build();
    try (Writer w = Files.newBufferedWriter(trace, StandardCharsets.UTF_8)) {
      synthetic.writeTo(w);
    }
    LocalFlinkCluster.awaitRestPortFree(Duration.ofMinutes(15));
    cluster = new LocalFlinkCluster(LocalFlinkCluster.HOME.resolve(
        "pipelines/target/flink-cluster-progress-it"));
    System.out.printf("TIMING cluster start: %d ms%n", cluster.start());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.stop();
    }
  }

  @Test
  void onATerminalTheClusterJobsProgressIsRedrawnAtLeastEverySecond() throws Exception {
    String command = "bash " + LAUNCHER + " analyze --runner flink-cluster -o "
        + dir.resolve("tty") + " " + trace;
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
    assertEquals(true, p.waitFor(10, TimeUnit.MINUTES));
    String text = all.toString(StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), text);
    assertThat(text, containsString("Real time at load:"));
    // the stages as the job's metrics on the cluster show them
    assertThat(text, containsString("\rreading"));
    assertThat(text, containsString(" records/s"));
    assertThat(text, containsString("\rjoining"));
    long jobMs = (System.nanoTime() - t0) / 1_000_000;
    long longestGap = 0;
    for (int i = 1; i < redrawsMs.size(); i++) {
      longestGap = Math.max(longestGap, redrawsMs.get(i) - redrawsMs.get(i - 1));
    }
    System.out.printf("job %d ms; %d redraws from %d to %d ms; longest gap %d ms%n", jobMs,
        redrawsMs.size(), redrawsMs.get(0), redrawsMs.get(redrawsMs.size() - 1), longestGap);
    assertThat("redraws " + redrawsMs, redrawsMs.size(), greaterThan(10));
    assertThat("redraws " + redrawsMs, longestGap, lessThanOrEqualTo(1_000L));
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
