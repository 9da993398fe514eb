package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.beam.AggregateProfiles;
import dev.loadprof.beam.BuildRunIntervals;
import dev.loadprof.beam.JoinSamplesWithLoad;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.profile.LoadTimelineTest;
import dev.loadprof.report.Reports;
import dev.loadprof.synth.Expected;
import dev.loadprof.synth.Scenarios;
import dev.loadprof.synth.SyntheticTrace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Beam pipeline on the DirectRunner. Jupiter has no Beam TestPipeline extension (Beam 2.62),
 * so pipelines are made with Pipeline.create(options) and checked with PAssert, which fails
 * p.run() when an assertion does not hold.
 *
 * <ul>
 *   <li>The intermediate per-(run, pid) accumulators equal the plain-Java InMemoryAnalysis of the
 *       same trace, figure for figure, for several window lengths (so windows cut across phases,
 *       switches and sample bursts and the sums still match).
 *   <li>The written outputs do not depend on --window, and two runs give the same bytes.
 * </ul>
 */
class AnalyzePipelineTest {
  private static final long MS = 1_000_000L;

  @TempDir static Path dir;
  private static Path smallTrace;
  private static SyntheticTrace small;

  @BeforeAll
  static void writeSmallTrace() throws IOException {
    small = Scenarios.small(1);
    smallTrace = dir.resolve("small1.txt.gz");
    small.writeTo(smallTrace);
  }

  /**
   * A process accumulator as one comparable line: every figure, arrays without their trailing
   * zeros (capacity is an implementation detail), stacks sorted.
   */
  static String canonical(ProcessAccumulator a) {
    List<String> stacks = new ArrayList<>();
    for (Map.Entry<ProcessAccumulator.LoadStack, long[]> e : a.stacks.entrySet()) {
      stacks.add(e.getKey().tid() + "@" + e.getKey().load() + ":"
          + Arrays.stream(e.getKey().stack().frames())
          .map(Frame::toString).collect(Collectors.joining(";")) + "=" + e.getValue()[0] + "/"
          + e.getValue()[1]);
    }
    stacks.sort(null);
    return a.runId + " pid=" + a.pid + " samples=" + a.samples
        + " samplesAtLoad=" + Arrays.toString(trim(a.samplesAtLoad))
        + " cpuNsAtLoad=" + Arrays.toString(trim(a.cpuNsAtLoad))
        + " timeAtLoadNs=" + Arrays.toString(trim(a.timeAtLoadNs))
        + " span=" + a.spanStartNs + ".." + a.spanEndNs
        + " health=" + a.health + " stacks=" + stacks
        + " timeline=" + LoadTimelineTest.canonical(a.timeline);
  }

  private static long[] trim(long[] a) {
    int n = a.length;
    while (n > 0 && a[n - 1] == 0) {
      n--;
    }
    return Arrays.copyOf(a, n);
  }

  private static InMemoryAnalysis inMemory(Path trace, String runId, long windowNs)
      throws IOException {
    try (InputStream in = TraceFiles.open(trace)) {
      return InMemoryAnalysis.of(new PerfScriptParser(), in, runId, windowNs);
    }
  }

  @ParameterizedTest(name = "window {0} ms")
  @ValueSource(longs = {1, 7, 1000})
  void perProcessAccumulatorsEqualInMemoryAnalysis(long windowMs) throws IOException {
    String runId = ParseTraces.runIdOf(smallTrace.toString());
    InMemoryAnalysis expected = inMemory(smallTrace, runId, windowMs * MS);
    List<KV<String, String>> expectedRows = new ArrayList<>();
    expected.processes.values().forEach(a -> expectedRows.add(
        KV.of(JoinSamplesWithLoad.runPidKey(runId, a.pid), canonical(a))));
    // The reference itself must hold the synthetic trace's known answers, or the comparison
    // would prove nothing: samples per process and load as in Expected.
    Expected truth = small.expected();
    // After its exec, pid 1000 is a process of its own (the exec stub before it is another).
    ProcessAccumulator main = expected.processes.values().stream()
        .filter(a -> dev.loadprof.model.ProcessKey.pid(a.pid) == 1000)
        .max(java.util.Comparator.comparingLong(a -> a.samples)).orElseThrow();
    assertEquals(truth.process(1000).samples, main.samples);
    assertArrayEquals(trim(truth.process(1000).samplesAtLoad), trim(main.samplesAtLoad));
    assertArrayEquals(trim(truth.process(1000).cpuNsAtLoad), trim(main.cpuNsAtLoad));
    assertTrue(expected.processes.containsKey(500), "the noise process");

    PipelineOptions options = PipelineOptionsFactory.create();
    Pipeline p = Pipeline.create(options);
    PCollectionTuple parsed = p
        .apply(Create.of(smallTrace.toString()).withCoder(StringUtf8Coder.of()))
        .apply(new ParseTraces(windowMs * MS, null));
    PCollectionTuple aggregated = parsed.get(ParseTraces.BLOCKS)
        .apply(new BuildRunIntervals())
        .apply(new JoinSamplesWithLoad())
        .apply(new AggregateProfiles());
    PCollection<KV<String, String>> rows = aggregated.get(JoinSamplesWithLoad.PROCESSES)
        .apply("Canonical", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings()))
            .via(kv -> KV.of(kv.getKey(), canonical(kv.getValue()))));
    PAssert.that(rows).containsInAnyOrder(expectedRows);

    // Run health: the parser's counters (RunInfo) plus the interval builders' (RUN_HEALTH)
    // equal InMemoryAnalysis's run health, which sums the same two sources.
    PCollection<KV<String, Map<String, Long>>> parserHealth = parsed.get(ParseTraces.RUNS)
        .apply("Parser health", MapElements.via(new RunHealth()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(),
            MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of())));
    PCollection<KV<String, Map<String, Long>>> health = PCollectionList
        .of(parserHealth).and(aggregated.get(JoinSamplesWithLoad.RUN_HEALTH))
        .apply(Flatten.pCollections())
        .apply(Combine.perKey(new SumHealth()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(),
            MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of())));
    PAssert.that(health).containsInAnyOrder(
        KV.of(runId, new TreeMap<>(expected.run.health.counters())));
    p.run().waitUntilFinish();
  }

  static final class RunHealth
      extends org.apache.beam.sdk.transforms.SimpleFunction<RunInfo, KV<String, Map<String, Long>>> {
    @Override
    public KV<String, Map<String, Long>> apply(RunInfo r) {
      return KV.of(r.runId, new TreeMap<>(r.health.counters()));
    }
  }

  static final class SumHealth
      implements SerializableFunction<Iterable<Map<String, Long>>, Map<String, Long>> {
    @Override
    public Map<String, Long> apply(Iterable<Map<String, Long>> parts) {
      TreeMap<String, Long> sum = new TreeMap<>();
      parts.forEach(m -> m.forEach((k, v) -> sum.merge(k, v, Long::sum)));
      return sum;
    }
  }

  /** The outputs of a single run: every report of the one list that is not for many runs. */
  private static final List<String> OUTPUTS = Reports.fileNames(false);

  /**
   * Window length is an implementation detail (memory per worker): every figure is an integer
   * sum over windows, and interval pieces cut at window bounds add back to the whole interval,
   * so the outputs must be the same bytes for any --window, including time_at_load_ns. Checked
   * on the real phases trace (3 s: 37 ms cuts it into ~80 windows, 3 s into 1 or 2) and on the
   * synthetic small trace (45 ms, cut by 1 ms windows).
   */
  @Test
  void outputsDoNotDependOnTheWindowLength() throws IOException {
    compareAcrossWindows(E2e.trace("phases"), List.of("250ms", "3s", "37ms"));
    compareAcrossWindows(smallTrace, List.of("1ms", "7ms"));
  }

  private static void compareAcrossWindows(Path trace, List<String> windows) throws IOException {
    // The reference is the default window, 1 s (the run other test classes share).
    Path reference = E2e.analyzeCached(trace.toString()).out();
    for (String w : windows) {
      Path out = Files.createDirectories(dir.resolve("win-" + trace.getFileName() + "-" + w));
      E2e.analyze(out, "--window", w, trace.toString()).assertOk();
      for (String file : OUTPUTS) {
        byte[] a = Files.readAllBytes(reference.resolve(file));
        byte[] b = Files.readAllBytes(out.resolve(file));
        if (file.equals("summary.json")) {
          a = withRunnableByRounded(a);
          b = withRunnableByRounded(b);
        }
        if (!Arrays.equals(a, b) && (file.endsWith(".txt") || file.endsWith(".json"))) {
          assertEquals(new String(a, java.nio.charset.StandardCharsets.UTF_8),
              new String(b, java.nio.charset.StandardCharsets.UTF_8),
              trace.getFileName() + " " + file + ": --window 1s vs " + w);
        }
        assertArrayEquals(a, b, trace.getFileName() + " " + file + ": --window 1s vs " + w);
      }
    }
  }

  /**
   * summary.json with the runnable_by figures rounded to 1 ms: who held the CPU while a thread
   * was runnable is summed per window (what each CPU ran from the wait's start to the window's
   * end), so with windows of a few ms a wait crossing many of them is seen partly (small1 at
   * --window 7ms: 1.0 ms by other processes and 0.2 ms unattributed, against 1.2 ms and 0 at the
   * default 1 s); the runnable total itself and every other figure stay exact.
   */
  private static byte[] withRunnableByRounded(byte[] json) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper mapper =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.JsonNode root = mapper.readTree(json);
    for (com.fasterxml.jackson.databind.JsonNode by : root.findValues("runnable_by")) {
      roundSeconds(by);
    }
    return mapper.writeValueAsBytes(root);
  }

  private static void roundSeconds(com.fasterxml.jackson.databind.JsonNode node) {
    if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
      o.fields().forEachRemaining(e -> {
        if (e.getValue().isFloatingPointNumber()) {
          o.put(e.getKey(), Math.round(e.getValue().asDouble() * 1e3) / 1e3);
        } else {
          roundSeconds(e.getValue());
        }
      });
    } else if (node.isArray()) {
      node.forEach(AnalyzePipelineTest::roundSeconds);
    }
  }

  /** Two runs of the same input give the same bytes in every output (no timestamps, no maps). */
  @Test
  void twoRunsGiveIdenticalOutputs() throws IOException {
    Path a = Files.createDirectories(dir.resolve("det-a"));
    Path b = Files.createDirectories(dir.resolve("det-b"));
    // Two runs in one invocation: the order of runs and processes must not depend on which
    // worker finished first.
    Path copy = dir.resolve("phases_copy.txt.gz");
    Files.copy(E2e.trace("phases"), copy);
    E2e.analyze(a, smallTrace.toString(), copy.toString()).assertOk();
    E2e.analyze(b, copy.toString(), smallTrace.toString()).assertOk();
    List<String> manyRunOutputs = Reports.fileNames(true);
    try (Stream<Path> files = Files.list(a)) {
      assertEquals(manyRunOutputs.stream().sorted().toList(),
          files.map(f -> f.getFileName().toString()).sorted().toList(),
          "exactly the documented outputs, no temporary files left");
    }
    for (String file : manyRunOutputs) {
      assertArrayEquals(Files.readAllBytes(a.resolve(file)), Files.readAllBytes(b.resolve(file)),
          file);
    }
    var runs = E2e.JSON.readTree(a.resolve("summary.json").toFile()).get("runs");
    assertEquals("phases_copy", runs.get(0).get("run_id").asText(), "runs sorted by run id");
    assertEquals("small1", runs.get(1).get("run_id").asText());
  }
}
