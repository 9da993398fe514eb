package dev.loadprof.pipelines;

import dev.loadprof.cli.LoadprofCli;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.synth.SyntheticFleet;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadprof analyze} of a 100-run synthetic fleet on the real local Flink session cluster
 * (one JobManager, two TaskManagers, parallelism 4) gives outputs identical, byte for byte, to the
 * DirectRunner's; and it still does when a TaskManager is killed in the middle of the job, thanks
 * to the restart strategy of runner-configs/flink-cluster/config.yaml.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AnalyzeOnFlinkClusterIT {
  private static final int RUNS = 100;

  @TempDir static Path dir;
  private static Path fleet;
  private static Path directOut;
  private static LocalFlinkCluster cluster;

  @BeforeAll
  static void generateFleetAndAnalyzeOnTheDirectRunner() throws Exception {
    LocalFlinkCluster.assumeClusterTests();
    fleet = dir.resolve("fleet");
    SyntheticFleet.generate(fleet, RUNS, 11);
    directOut = dir.resolve("direct");
    long t0 = System.nanoTime();
    assertEquals(0, analyze(directOut, "--runner", "direct"));
    System.out.printf("TIMING direct analyze of %d runs: %d ms%n", RUNS, millisSince(t0));
    cluster = LocalFlinkCluster.started("flink-cluster-analyze-it");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    LocalFlinkCluster.stopIfAny(cluster);
  }

  @Test
  @Order(1)
  void clusterAtParallelism4GivesTheDirectRunnersOutputs() throws Exception {
    Path out = dir.resolve("cluster");
    long t0 = System.nanoTime();
    assertEquals(0, analyze(out, "--runner", "flink-cluster", "--parallelism=4",
        "--jobName=loadprof-it-analyze"));
    System.out.printf("TIMING cluster analyze of %d runs: %d ms%n", RUNS, millisSince(t0));
    assertSameOutputs(directOut, out);
    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals(RUNS, summary.get("runs").size());
    assertEquals(RUNS, summary.get("run_table").size());
    for (JsonNode run : summary.get("runs")) {
      assertTrue(run.get("records").get("balanced").asBoolean(), run.get("run_id").asText());
    }
  }

  @Test
  @Order(2)
  void clusterJobRecoversFromALostTaskManagerWithTheSameOutputs() throws Exception {
    Path out = dir.resolve("fault");
    String jobName = "loadprof-it-analyze-fault";
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> job = executor.submit(() -> analyze(out, "--runner", "flink-cluster",
          "--parallelism=4", "--jobName=" + jobName));
      String jobId = cluster.waitForRunningJob(jobName, job, () -> true, Duration.ofMinutes(3));
      Thread.sleep(1_500);
      assertFalse(job.isDone(), "the job finished before the fault could be injected");
      long killedAt = System.nanoTime();
      cluster.killTaskManager(1);
      cluster.replaceTaskManager(1);
      assertEquals(0, job.get(10, TimeUnit.MINUTES));
      System.out.printf("TIMING fault job finished %d ms after the kill%n", millisSince(killedAt));
      int failovers = cluster.failovers(jobId);
      System.out.printf("fault job %s failed over %d time(s)%n", jobId, failovers);
      assertTrue(failovers >= 1, "the lost TaskManager should have made the job fail over");
      assertSameOutputs(directOut, out);
    } finally {
      executor.shutdownNow();
    }
  }

  private static int analyze(Path out, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("analyze", "--out", out.toString()));
    args.addAll(List.of(options));
    try (Stream<Path> traces = Files.list(fleet)) {
      traces.filter(p -> p.toString().endsWith(".txt.gz")).sorted()
          .forEach(p -> args.add(p.toString()));
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = LoadprofCli.run(args.toArray(new String[0]), new PrintStream(
        new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true,
        StandardCharsets.UTF_8));
    if (exit != 0) {
      System.err.println(err.toString(StandardCharsets.UTF_8));
    }
    return exit;
  }

  private static void assertSameOutputs(Path expected, Path actual) throws IOException {
    Map<String, byte[]> want = files(expected);
    Map<String, byte[]> got = files(actual);
    assertEquals(want.keySet(), got.keySet(), "output files");
    for (String name : want.keySet()) {
      assertArrayEquals(want.get(name), got.get(name), name + " differs from the DirectRunner's");
    }
  }

  private static Map<String, byte[]> files(Path outDir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(outDir)) {
      for (Path p : list.toList()) {
        files.put(p.getFileName().toString(), Files.readAllBytes(p));
      }
    }
    return files;
  }

  private static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
