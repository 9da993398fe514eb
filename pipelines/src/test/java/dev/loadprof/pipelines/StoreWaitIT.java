package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An S3 store that takes connections and never answers: the job says that it waits for the
 * object, and ends with exit 1 and one line naming the store, within its stated limit (3 tries
 * of $LOADPROF_STORE_SILENCE_S, 4 s here; 20 s by default), not after minutes of silence.
 */
class StoreWaitIT {
  private static final int SILENCE_S = 4;

  @TempDir static Path dir;
  static ServerSocket silent;
  static final List<Socket> held = new ArrayList<>();

  @BeforeAll
  static void aStoreThatNeverAnswers() throws IOException {
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(() -> {
      while (!silent.isClosed()) {
        try {
          Socket s = silent.accept(); // and never a byte back
          synchronized (held) {
            held.add(s);
          }
        } catch (IOException e) {
          return;
        }
      }
    }, "silent-store");
    accept.setDaemon(true);
    accept.start();
  }

  @AfterAll
  static void close() throws IOException {
    silent.close();
    synchronized (held) {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  private static CliProcess.Result cli(String name, String... args) throws Exception {
    Map<String, String> env = Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:"
        + silent.getLocalPort(), "AWS_ACCESS_KEY_ID", "any", "AWS_SECRET_ACCESS_KEY", "any",
        "AWS_REGION", "us-east-1", "LOADPROF_STORE_SILENCE_S", Integer.toString(SILENCE_S));
    return CliProcess.run(env, dir.resolve(name + ".log"), args);
  }

  @Test
  void archiveAndAnalyzeEndInOneLineNamingTheStore() throws Exception {
    String phases = Path.of("../examples/phases.txt.gz").toAbsolutePath().normalize().toString();
    String store = "the S3 store at http://127.0.0.1:" + silent.getLocalPort();
    for (String[] args : new String[][] {
        {"archive", "--out", "s3://bucket/archive", phases},
        {"analyze", "--out", dir.resolve("out").toString(), "s3://bucket/archive"}}) {
      long start = System.nanoTime();
      CliProcess.Result run = cli(args[0], args);
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("%s against a silent store: exit %d after %.1f s%n", args[0],
          run.code(), seconds);
      assertEquals(1, run.code(), run.output());
      assertThat(run.output(), containsString("loadprof: waiting for s3://bucket/"));
      assertThat(run.output(), containsString("loadprof: the job failed: s3://bucket/"));
      assertThat(run.output(), containsString(store + " did not answer (3 tries, each given up"
          + " after " + SILENCE_S + " s without an answer or on a broken connection)"));
      assertThat(run.output(), not(containsString("Read timed out")));
      assertThat(run.output(), not(containsString("\tat ")));
      // 3 tries of 4 s for the one request that fails the job, and the JVM's start: far below
      // the minutes one hung job waited in silence (no bound on a loaded machine's time here).
      assertTrue(seconds < 120, "took " + seconds + " s");
    }
  }
}
