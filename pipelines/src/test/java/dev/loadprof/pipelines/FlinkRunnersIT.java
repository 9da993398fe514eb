package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs one small pipeline on the DirectRunner, on embedded Flink ({@code flink-local}) and on a
 * real local Flink session cluster ({@code flink-cluster}, started with
 * scripts/flink-cluster.sh), and checks that all outputs are identical; then kills a
 * TaskManager while a slow job runs and checks that Flink's restart strategy still produces the
 * same output. {@code -Dloadprof.skipCluster=true} skips the cluster tests.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkRunnersIT {

  private static final int NUMBERS = 1000;
  private static final int MODULUS = 17;
  /** Per-element sleep of the fault test: 1000 x 120 ms over 4 slots, about 30 s of work. */
  private static final long SLOW_MILLIS_PER_ELEMENT =
      Long.getLong("loadprof.it.slowMillisPerElement", 120);

  private static final Path HOME = LocalFlinkCluster.HOME;
  /** Own state dir, so the test never adopts or stops a cluster somebody started by hand. */
  private static final Path CLUSTER_DIR = HOME.resolve("pipelines/target/flink-cluster-it");
  private static final Path JOB_JAR = HOME.resolve("pipelines/target/loadprof-flink-job.jar");


  @TempDir static Path tempDir;

  private static String directOutput;
  private static LocalFlinkCluster cluster;
  private static final List<String> timings = Collections.synchronizedList(new ArrayList<>());

  // --- the pipeline ---------------------------------------------------------------------------

  /**
   * Keys each number by {@code n % modulus}. For the fault test it sleeps per element and, on
   * its first element, creates {@code startedMarker} so the test knows the slow work began.
   */
  static class KeyByModulo extends DoFn<Long, KV<Integer, Long>> {
    private final int modulus;
    private final long sleepMillis;
    private final String startedMarker;

    KeyByModulo(int modulus, long sleepMillis, String startedMarker) {
      this.modulus = modulus;
      this.sleepMillis = sleepMillis;
      this.startedMarker = startedMarker;
    }

    @ProcessElement
    public void process(@Element Long n, OutputReceiver<KV<Integer, Long>> out)
        throws InterruptedException, IOException {
      if (startedMarker != null && !Files.exists(Paths.get(startedMarker))) {
        try {
          Files.createFile(Paths.get(startedMarker));
        } catch (java.nio.file.FileAlreadyExistsException e) {
          // another worker was first
        }
      }
      if (sleepMillis > 0) {
        Thread.sleep(sleepMillis);
      }
      out.output(KV.of((int) (n % modulus), n));
    }
  }

  /** One line per key: count, sum, min and max of its numbers. */
  static class SummarizeGroup extends DoFn<KV<Integer, Iterable<Long>>, String> {
    @ProcessElement
    public void process(@Element KV<Integer, Iterable<Long>> group, OutputReceiver<String> out) {
      long count = 0;
      long sum = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (long n : group.getValue()) {
        count++;
        sum += n;
        min = Math.min(min, n);
        max = Math.max(max, n);
      }
      out.output(summaryLine(group.getKey(), count, sum, min, max));
    }
  }

  /** Combines all lines into one text, sorted, so the output file is deterministic. */
  static class SortedText extends Combine.CombineFn<String, List<String>, String> {
    @Override
    public List<String> createAccumulator() {
      return new ArrayList<>();
    }

    @Override
    public List<String> addInput(List<String> lines, String line) {
      List<String> result = new ArrayList<>(lines);
      result.add(line);
      return result;
    }

    @Override
    public List<String> mergeAccumulators(Iterable<List<String>> accumulators) {
      List<String> merged = new ArrayList<>();
      accumulators.forEach(merged::addAll);
      return merged;
    }

    @Override
    public String extractOutput(List<String> lines) {
      List<String> sorted = new ArrayList<>(lines);
      Collections.sort(sorted);
      return String.join("\n", sorted);
    }
  }

  static String summaryLine(int key, long count, long sum, long min, long max) {
    return String.format("key=%02d count=%d sum=%d min=%d max=%d", key, count, sum, min, max);
  }

  /** Builds and runs the pipeline; returns the content of its single output file. */
  private static String runPipeline(String label, String[] args) throws IOException {
    return runPipeline(label, args, 0, null);
  }

  private static String runPipeline(String label, String[] args, long sleepMillis, Path startedMarker)
      throws IOException {
    PipelineOptions options = PipelineOptionsFactory.fromArgs(args).create();
    Path outputDir = Files.createDirectories(tempDir.resolve(label));
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Numbers", Create.of(LongStream.rangeClosed(1, NUMBERS).boxed().toList()))
        .apply("SpreadOverWorkers", Reshuffle.viaRandomKey())
        .apply("KeyByModulo", ParDo.of(new KeyByModulo(MODULUS, sleepMillis,
            startedMarker == null ? null : startedMarker.toString())))
        .apply("GroupByKey", GroupByKey.create())
        .apply("Summarize", ParDo.of(new SummarizeGroup()))
        .apply("SortedText", Combine.globally(new SortedText()))
        .apply("Write", TextIO.write().to(outputDir.resolve("result").toString())
            .withSuffix(".txt").withoutSharding());
    long start = System.nanoTime();
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    long millis = (System.nanoTime() - start) / 1_000_000;
    timings.add(label + ": " + millis + " ms");
    System.out.printf("TIMING %s job: %d ms (%s)%n", label, millis, state);
    assertEquals(PipelineResult.State.DONE, state, label + " final state");
    return Files.readString(outputDir.resolve("result.txt"), StandardCharsets.UTF_8);
  }

  /** The expected output, computed without Beam. */
  private static String expectedOutput() {
    List<String> lines = new ArrayList<>();
    for (int key = 0; key < MODULUS; key++) {
      final int k = key;
      List<Long> numbers =
          LongStream.rangeClosed(1, NUMBERS).filter(n -> n % MODULUS == k).boxed().toList();
      lines.add(summaryLine(key, numbers.size(), numbers.stream().mapToLong(Long::longValue).sum(),
          Collections.min(numbers), Collections.max(numbers)));
    }
    Collections.sort(lines);
    return String.join("\n", lines) + "\n";
  }

  private static synchronized String directOutput() throws IOException {
    if (directOutput == null) {
      directOutput = runPipeline("direct", RunnerConfig.load("direct").withUserArgs());
    }
    return directOutput;
  }

  // --- tests ------------------------------------------------------------------------------------

  @Test
  @Order(1)
  void directRunnerProducesTheExpectedOutput() throws IOException {
    assertEquals(expectedOutput(), directOutput());
  }

  @Test
  @Order(2)
  void embeddedFlinkMatchesDirectRunner() throws IOException {
    String[] args = RunnerConfig.load("flink-local").withUserArgs("--jobName=loadprof-it-flink-local");
    assertEquals(directOutput(), runPipeline("flink-local", args));
  }

  @Test
  @Order(3)
  void flinkSessionClusterMatchesDirectRunner() throws Exception {
    startClusterOnce();
    String[] args = clusterArgs("loadprof-it-cluster");
    FlinkPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(FlinkPipelineOptions.class);
    assertEquals(4, options.getParallelism());
    assertEquals(directOutput(), runPipeline("flink-cluster", args));
  }

  @Test
  @Order(4)
  void flinkSessionClusterRecoversFromALostTaskManager() throws Exception {
    startClusterOnce();
    String expected = directOutput();
    String jobName = "loadprof-it-cluster-fault";
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      Path started = tempDir.resolve("fault-job-started");
      Future<String> job = executor.submit(() -> runPipeline(
          "flink-cluster-fault", clusterArgs(jobName), SLOW_MILLIS_PER_ELEMENT, started));

      // Wait until the slow ParDo processes elements, let it work a bit, then kill a TaskManager.
      String jobId = cluster.waitForRunningJob(jobName, job, () -> Files.exists(started),
          Duration.ofSeconds(180));
      Thread.sleep(3_000);
      assertFalse(job.isDone(), "the slow job finished before the fault could be injected");
      long killedAt = System.nanoTime();
      cluster.killTaskManager(1);
      cluster.replaceTaskManager(1);
      System.out.printf("TIMING replacement TaskManager registered %d ms after the kill%n",
          (System.nanoTime() - killedAt) / 1_000_000);

      String output = job.get(5, TimeUnit.MINUTES);
      System.out.printf("TIMING fault job finished %d ms after the kill%n",
          (System.nanoTime() - killedAt) / 1_000_000);
      assertEquals(expected, output, "output after TaskManager loss");

      int failures = cluster.failovers(jobId);
      System.out.printf("fault job %s recorded %d failure(s) before finishing%n", jobId, failures);
      assertTrue(failures >= 1, "the job should have failed over at least once");
    } finally {
      executor.shutdownNow();
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    System.out.println("TIMINGS " + timings);
    if (cluster != null) {
      cluster.stop();
    }
  }

  // --- cluster helpers --------------------------------------------------------------------------

  private static String[] clusterArgs(String jobName) throws URISyntaxException, IOException {
    assertTrue(Files.isRegularFile(JOB_JAR), JOB_JAR + " is missing; run mvn package first");
    // The job jar carries Beam and loadprof; this test's own DoFns live in test-classes, staged
    // as a jar made here: Beam zips a directory it stages into a jar of its own in /tmp, named
    // by its content's hash, and leaves it there (one more each time the test classes change).
    return RunnerConfig.load("flink-cluster")
        .withUserArgs("--jobName=" + jobName, "--filesToStage=" + JOB_JAR + "," + testClassesJar());
  }

  /** This module's test classes as one jar under target/, made once a run of the tests. */
  private static synchronized Path testClassesJar() throws URISyntaxException, IOException {
    Path jar = CLUSTER_DIR.resolve("test-classes.jar");
    if (testClassesJarMade) {
      return jar;
    }
    Path classes =
        Paths.get(FlinkRunnersIT.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Files.createDirectories(CLUSTER_DIR);
    List<Path> files;
    try (java.util.stream.Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(
        Files.newOutputStream(jar))) {
      for (Path f : files) {
        out.putNextEntry(new java.util.jar.JarEntry(
            classes.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    testClassesJarMade = true;
    return jar;
  }

  private static boolean testClassesJarMade;

  private static synchronized void startClusterOnce() throws Exception {
    assumeFalse(Boolean.getBoolean("loadprof.skipCluster"),
        "Flink session cluster tests skipped (-Dloadprof.skipCluster=true)");
    if (cluster != null) {
      return;
    }
    cluster = new LocalFlinkCluster(CLUSTER_DIR);
    long millis = cluster.start();
    timings.add("cluster start: " + millis + " ms");
    System.out.printf("TIMING cluster start: %d ms%n", millis);
  }
}
