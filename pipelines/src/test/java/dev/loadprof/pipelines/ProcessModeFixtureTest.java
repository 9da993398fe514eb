package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed per-process recording of {@code phases 0.5} (what {@code loadprof record} makes
 * without root: cpu-clock:u with --switch-events, recorded as user nobody): its loads are those
 * the workload's phases dictate, taken from its .windows file, and the sample filters work on
 * it (-C selects nothing, loudly: it was recorded without --sample-cpu, so its samples have
 * no CPU).
 */
class ProcessModeFixtureTest {
  private static final String NAME = "phases_process";
  /** "comm PID/TID seconds: period cpu-clock:u:": no [cpu] column. */
  private static final Pattern SAMPLE =
      Pattern.compile("\\s(\\d+)/(\\d+)\\s+\\d+\\.\\d{9}:\\s+\\d+\\s+cpu-clock:u:");

  @TempDir static Path dir;
  private static int pid;
  private static final Map<Integer, Integer> samplesByTid = new TreeMap<>();
  private static Cli cli;

  @BeforeAll
  static void analyze() throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(E2e.trace(NAME))), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Matcher m = SAMPLE.matcher(line);
        if (m.find()) {
          pid = Integer.parseInt(m.group(1));
          samplesByTid.merge(Integer.parseInt(m.group(2)), 1, Integer::sum);
        }
      }
    }
    assertEquals(3, samplesByTid.size(), "main and 2 workers: " + samplesByTid);
    cli = E2e.analyzeCached(E2e.trace(NAME).toString());
  }

  private static long samples() {
    return samplesByTid.values().stream().mapToLong(Integer::longValue).sum();
  }

  /** Seconds of the workload's phases with this load, from the .windows file. */
  private static double windowSeconds(int load) {
    return E2e.windows(E2e.windowsFile(NAME)).stream().filter(w -> w.load() == load)
        .mapToDouble(w -> w.end() - w.start()).sum();
  }

  @Test
  void loadsAreThoseOfThePhases() {
    JsonNode run = cli.summary().get("runs").get(0);
    assertThat(run.get("warnings").toString(), containsString("per-thread context-switch"));
    JsonNode p = E2e.process(cli.summary(), pid);
    assertEquals(samples(), p.get("samples").asLong());
    Map<String, Double> avgLoad = E2e.topFunctions(p, "avg_load");
    // Only the main thread exists in these phases: every sample is at load 1, exactly.
    assertEquals(1.0, avgLoad.get("serial_phase"));
    assertEquals(1.0, avgLoad.get("tail_serial"));
    // Both workers run parallel_phase on the 2 CPUs.
    assertThat(avgLoad.get("parallel_phase"), greaterThanOrEqualTo(1.9));
    assertThat(avgLoad.get("parallel_phase"), lessThanOrEqualTo(2.0));
    // Time at each load: the phases' windows, within 10 %.
    JsonNode time = p.get("time_at_load_ns");
    for (int load : List.of(1, 2)) {
      double seconds = E2e.at(time, load) / 1e9;
      assertEquals(windowSeconds(load), seconds, 0.1 * windowSeconds(load), "load " + load);
    }
  }

  @Test
  void tidAndCpuFiltersOnAPerThreadRecording() throws IOException {
    Cli main = E2e.analyze(Files.createDirectories(dir.resolve("tid")), "--tid",
        Integer.toString(pid), E2e.trace(NAME).toString()).assertOk();
    JsonNode p = E2e.process(main.summary(), pid);
    assertEquals(samples() - samplesByTid.get(pid),
        p.get("health").get("samples_not_selected").asLong(), "the workers' samples");
    assertThat(main.file("functions.txt"), containsString("serial_phase"));
    assertEquals(-1, main.file("flame.folded").indexOf("parallel_phase"));

    Cli cpu = E2e.analyze(Files.createDirectories(dir.resolve("cpu")), "-C", "0",
        E2e.trace(NAME).toString()).assertOk();
    JsonNode q = E2e.process(cpu.summary(), pid);
    assertEquals(samples(), q.get("health").get("samples_not_selected").asLong());
    assertThat(cpu.summary().get("runs").get(0).get("warnings").toString(),
        containsString("--cpu selects no sample of this run"));
    assertThat(cpu.stderr() + cpu.stdout(), containsString("--cpu selects no sample"));
  }
}
