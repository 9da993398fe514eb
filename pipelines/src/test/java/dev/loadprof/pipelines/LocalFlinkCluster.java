package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The local Flink session cluster of scripts/flink-cluster.sh, driven from integration tests:
 * start, stop, kill or restart a TaskManager, and ask the REST API about jobs. Each test class
 * gives its own state directory, so it never stops a cluster a developer started by hand.
 */
final class LocalFlinkCluster {
  static final Path HOME = RunnerConfig.resolveHome();
  private static final Path SCRIPT = HOME.resolve("scripts/flink-cluster.sh");
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path stateDir;
  private final java.util.Map<String, String> environment;
  private boolean started;

  LocalFlinkCluster(Path stateDir) {
    this(stateDir, java.util.Map.of());
  }

  /** @param environment added to the cluster processes' environment (e.g. store credentials) */
  LocalFlinkCluster(Path stateDir, java.util.Map<String, String> environment) {
    this.stateDir = stateDir;
    this.environment = environment;
  }

  /** Skips the calling test class when -Dloadprof.skipCluster=true. */
  static void assumeClusterTests() {
    org.junit.jupiter.api.Assumptions.assumeFalse(Boolean.getBoolean("loadprof.skipCluster"),
        "Flink session cluster tests skipped (-Dloadprof.skipCluster=true)");
  }

  /** A test class's own cluster, state in pipelines/target/NAME, started (its time printed). */
  static LocalFlinkCluster started(String name) throws IOException, InterruptedException {
    LocalFlinkCluster cluster = new LocalFlinkCluster(HOME.resolve("pipelines/target/" + name));
    System.out.printf("TIMING cluster start: %d ms%n", cluster.start());
    return cluster;
  }

  /** Stops a test class's cluster, if it got one. */
  static void stopIfAny(LocalFlinkCluster cluster) throws IOException, InterruptedException {
    if (cluster != null) {
      cluster.stop();
    }
  }

  /** Starts the cluster and waits until both TaskManagers registered; returns the ms it took. */
  long start() throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    started = true;
    script("start");
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /**
   * Waits until nothing listens on the cluster's REST port: another test's cluster (another
   * worktree on this machine) must not receive this test's jobs.
   */
  static void awaitRestPortFree(Duration timeout) throws InterruptedException {
    String master = RunnerConfig.load("flink-cluster").options().get("flinkMaster");
    int port = Integer.parseInt(master.substring(master.lastIndexOf(':') + 1));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try (java.net.Socket socket = new java.net.Socket()) {
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1_000);
      } catch (IOException free) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail("port " + port + " (the Flink cluster's REST port) stayed in use for " + timeout
            + "; stop the other cluster (scripts/flink-cluster.sh stop)");
      }
      System.out.println("port " + port + " in use by another Flink cluster; waiting");
      Thread.sleep(10_000);
    }
  }

  void stop() throws IOException, InterruptedException {
    if (started) {
      script("stop");
    }
  }

  void killTaskManager(int n) throws IOException, InterruptedException {
    script("kill-taskmanager", Integer.toString(n));
  }

  private void startTaskManager(int n) throws IOException, InterruptedException {
    script("start-taskmanager", Integer.toString(n));
  }

  /**
   * Starts a replacement TaskManager, and once more if the first one did not register: what an
   * operator would do. One CI run saw a replacement not register in 120 s (it registers in 2-3 s
   * here); the script's message then carries its log's last lines.
   */
  void replaceTaskManager(int n) throws IOException, InterruptedException {
    try {
      startTaskManager(n);
    } catch (AssertionError firstTry) {
      System.out.println("replacement TaskManager did not register; trying once more: "
          + firstTry.getMessage());
      try {
        killTaskManager(n);
      } catch (AssertionError notRunning) {
        System.out.println("(it was not running)");
      }
      startTaskManager(n);
    }
  }

  JsonNode rest(String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(restBase() + path))
        .timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), "GET " + path + ": " + response.body());
    return JSON.readTree(response.body());
  }

  /** How many times the job failed over before it finished (Flink's exception history). */
  int failovers(String jobId) throws IOException, InterruptedException {
    return rest("/jobs/" + jobId + "/exceptions").path("exceptionHistory").path("entries").size();
  }

  /**
   * Waits until a job of that name is RUNNING and {@code ready} holds; returns its id. Fails if
   * the job ends first (surfacing its error) or the timeout passes.
   */
  String waitForRunningJob(String jobName, Future<?> job, BooleanSupplier ready, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (job.isDone()) {
        job.get(); // surfaces a submission failure
        fail("job " + jobName + " finished before it was seen running");
      }
      if (ready.getAsBoolean()) {
        for (JsonNode entry : rest("/jobs/overview").path("jobs")) {
          if (jobName.equals(entry.path("name").asText())
              && "RUNNING".equals(entry.path("state").asText())) {
            return entry.path("jid").asText();
          }
        }
      }
      Thread.sleep(250);
    }
    throw new AssertionError("job " + jobName + " was not running within " + timeout
        + "; jobs: " + rest("/jobs/overview"));
  }

  private static String restBase() {
    return "http://" + RunnerConfig.load("flink-cluster").options().get("flinkMaster");
  }

  /** Runs scripts/flink-cluster.sh with this cluster's state dir; fails with its output. */
  private void script(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(SCRIPT.toString());
    command.addAll(List.of(args));
    Path log = Files.createDirectories(stateDir).resolve("script-" + args[0] + ".out");
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(HOME.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    builder.environment().put("LOADPROF_FLINK_DIR", stateDir.toString());
    Process process = builder.start();
    if (!process.waitFor(4, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("flink-cluster.sh " + String.join(" ", args) + " timed out; see " + log);
    }
    String output = Files.readString(log);
    System.out.print(output);
    assertEquals(0, process.exitValue(),
        "flink-cluster.sh " + String.join(" ", args) + " failed:\n" + output);
  }
}
