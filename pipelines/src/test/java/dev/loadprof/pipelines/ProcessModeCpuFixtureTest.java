package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A per-process recording of {@code phases 0.5} made as user nobody with {@code --sample-cpu}
 * (what {@code loadprof record --mode process} runs): its samples and switch records carry a
 * [cpu] column, and -C selects the samples taken on those CPUs, while the loads (read per
 * thread) stay those of all CPUs.
 */
class ProcessModeCpuFixtureTest {
  private static final String NAME = "phases_process_cpu";
  /** "comm PID/TID [cpu] seconds: period cpu-clock:u:". */
  private static final Pattern SAMPLE = Pattern.compile(
      "\\s(\\d+)/(\\d+)\\s+\\[(\\d+)\\]\\s+\\d+\\.\\d{9}:\\s+\\d+\\s+cpu-clock:u:");

  @TempDir static Path dir;
  private static int pid;
  private static final Map<Integer, Long> samplesByCpu = new TreeMap<>();
  private static Cli all;

  @BeforeAll
  static void analyze() throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(E2e.trace(NAME))), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Matcher m = SAMPLE.matcher(line);
        if (m.find()) {
          pid = Integer.parseInt(m.group(1));
          samplesByCpu.merge(Integer.parseInt(m.group(3)), 1L, Long::sum);
        }
      }
    }
    assertEquals(2, samplesByCpu.size(), "samples on both CPUs: " + samplesByCpu);
    all = E2e.analyze(Files.createDirectories(dir.resolve("all")), E2e.trace(NAME).toString())
        .assertOk();
  }

  private static long samples() {
    return samplesByCpu.values().stream().mapToLong(Long::longValue).sum();
  }

  @Test
  void readsThePerThreadRecordingWithItsCpuColumn() {
    JsonNode run = all.summary().get("runs").get(0);
    assertThat(run.get("warnings").toString(), containsString("per-thread context-switch"));
    assertEquals(2, run.get("cpus").asInt(), "the CPUs its samples name");
    JsonNode p = E2e.process(all.summary(), pid);
    assertEquals(samples(), p.get("samples").asLong());
    // parallel_phase: 2 workers on a CPU each at some instants, so load 2 is seen.
    assertThat(E2e.at(p.get("time_at_load_ns"), 2), greaterThan(0.0));
  }

  @Test
  void cpuSelectsTheSamplesTakenOnThoseCpus() throws IOException {
    for (int cpu : samplesByCpu.keySet()) {
      Cli one = E2e.analyze(Files.createDirectories(dir.resolve("cpu" + cpu)), "-C",
          Integer.toString(cpu), E2e.trace(NAME).toString()).assertOk();
      JsonNode p = E2e.process(one.summary(), pid);
      assertEquals(samples() - samplesByCpu.get(cpu),
          p.get("health").get("samples_not_selected").asLong(), "-C " + cpu);
      assertThat(one.summary().get("runs").get(0).get("warnings").toString(),
          not(containsString("--cpu selects no sample")));
      // The loads are still counted over all CPUs: the histograms stay whole.
      JsonNode whole = E2e.process(all.summary(), pid);
      assertEquals(whole.get("time_at_load_ns"), p.get("time_at_load_ns"));
      assertEquals(whole.get("realtime_histogram"), p.get("realtime_histogram"));
    }
  }
}
