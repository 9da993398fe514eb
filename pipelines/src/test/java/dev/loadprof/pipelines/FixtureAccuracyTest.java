package dev.loadprof.pipelines;

import static dev.loadprof.pipelines.E2e.at;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Accuracy on the real traces recorded on the project VM (see /work/shared/RECORDING.md): the
 * analysis, run through the CLI, must match the ground truth that the workloads printed as
 * WINDOW lines (CLOCK_MONOTONIC, the clock perf recorded with -k mono).
 *
 * <p>Tolerances. The WINDOW lines are what the workload meant to do, measured around the phases
 * by the main thread; the trace is what the scheduler did. They differ by (a) the skew between
 * the two workers of the parallel phase (they pass a barrier, but one starts and stops a little
 * before the other: tens to hundreds of microseconds each), (b) other processes of the machine
 * (perf itself, kdamond, memfd, kworkers) preempting a worker for a moment, which turns load 2
 * into load 1, and (c) sampling granularity (250 us at 4000 Hz over ~3.5 s of CPU, about 14000
 * samples: a 0.01 point resolution). Together these are well below 1 point on the recorded
 * traces; 2 points is the bound RECORDING.md gives for "measured traces".
 */
class FixtureAccuracyTest {
  /** Percentage points. */
  private static final double PCT_TOL = 2.0;
  /**
   * Seconds, for time_at_load. The phase lengths are timed by busy loops on CLOCK_MONOTONIC, so
   * they are exact to microseconds; the trace's intervals also contain thread creation and join
   * (a few ms), the preemptions of (b) above (a few ms in all) and up to one sample period of
   * repaired chain-break edges per break (68 breaks x 125 us ~ 9 ms worst case). 50 ms bounds all
   * of that with room, and still fails if a phase is lost or doubled.
   */
  private static final double TIME_TOL_S = 0.05;

  /** The ideal split of a fixture's workload pid, from its WINDOW lines. */
  record GroundTruth(int pid, double realLoad1Pct, double cpuLoad1Pct, Map<Integer, Double> secondsAtLoad) {
    static GroundTruth of(String fixture) {
      List<Window> windows = E2e.windows(E2e.windowsFile(fixture));
      int pid = windows.get(0).pid();
      Map<Integer, Double> byLoad = new TreeMap<>();
      for (Window w : windows) {
        assertEquals(pid, w.pid(), "one workload pid per .windows file");
        byLoad.merge(w.load(), w.seconds(), Double::sum);
      }
      double wall1 = 0;
      double wallMore = 0;
      double cpu1 = 0;
      double cpuAll = 0;
      for (Map.Entry<Integer, Double> e : byLoad.entrySet()) {
        int k = e.getKey();
        if (k == 0) {
          continue; // off-CPU: no samples, not part of either histogram
        }
        if (k == 1) {
          wall1 += e.getValue();
          cpu1 += e.getValue();
        } else {
          wallMore += e.getValue();
        }
        cpuAll += k * e.getValue();
      }
      return new GroundTruth(pid, 100 * wall1 / (wall1 + wallMore), 100 * cpu1 / cpuAll, byLoad);
    }
  }

  private static double pct(JsonNode histogram, int k) {
    return 100 * at(histogram, k);
  }

  /** Fraction at load >= 2, in %. */
  private static double pctAtLeast2(JsonNode histogram) {
    double sum = 0;
    for (var it = histogram.fields(); it.hasNext(); ) {
      var e = it.next();
      if (Integer.parseInt(e.getKey()) >= 2) {
        sum += e.getValue().asDouble();
      }
    }
    return 100 * sum;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"phases", "phases_wakeup", "phases_freq"})
  void phasesHistogramsMatchTheWindows(String fixture) {
    GroundTruth truth = GroundTruth.of(fixture);
    // The ground truth itself is what RECORDING.md says: 60/40 real, 42.9/57.1 CPU.
    assertEquals(60.0, truth.realLoad1Pct(), 0.05);
    assertEquals(42.86, truth.cpuLoad1Pct(), 0.05);

    JsonNode p = E2e.process(E2e.analyzeCached(E2e.trace(fixture).toString()).summary(),
        truth.pid());
    assertEquals("phases", p.get("comm").asText());
    JsonNode real = p.get("realtime_histogram");
    JsonNode cpu = p.get("cpu_histogram");
    System.out.printf("%s pid %d: real %.2f/%.2f (truth %.2f), cpu %.2f/%.2f (truth %.2f)%n",
        fixture, truth.pid(), pct(real, 1), pctAtLeast2(real), truth.realLoad1Pct(),
        pct(cpu, 1), pctAtLeast2(cpu), truth.cpuLoad1Pct());
    assertEquals(truth.realLoad1Pct(), pct(real, 1), PCT_TOL, "real time at load 1, %");
    assertEquals(100 - truth.realLoad1Pct(), pctAtLeast2(real), PCT_TOL, "real time at load >= 2, %");
    assertEquals(truth.cpuLoad1Pct(), pct(cpu, 1), PCT_TOL, "CPU time at load 1, %");
    assertEquals(100 - truth.cpuLoad1Pct(), pctAtLeast2(cpu), PCT_TOL, "CPU time at load >= 2, %");
    // Two threads at most: phases never has three on a CPU (main joins, it does not spin).
    assertEquals(0.0, at(real, 3), 0.001, "no load 3 in phases");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"phases", "phases_wakeup", "phases_freq"})
  void phasesTimeAtLoadFromIntervals(String fixture) {
    GroundTruth truth = GroundTruth.of(fixture);
    JsonNode p = E2e.process(E2e.analyzeCached(E2e.trace(fixture).toString()).summary(),
        truth.pid());
    JsonNode t = p.get("time_at_load_ns");
    double s0 = t.get("0").asLong() / 1e9;
    double s1 = t.get("1").asLong() / 1e9;
    double s2 = t.get("2").asLong() / 1e9;
    System.out.printf("%s time_at_load: 0=%.6f 1=%.6f 2=%.6f s%n", fixture, s0, s1, s2);
    // The workload's design (RECORDING.md): 1.5 s at load 1, 1.0 s at load 2, 0.5 s asleep.
    assertEquals(1.5, s1, TIME_TOL_S, "time at load 1");
    assertEquals(1.0, s2, TIME_TOL_S, "time at load 2");
    assertEquals(0.5, s0, TIME_TOL_S, "time at load 0 (blocked_phase)");
    // And the same against the measured windows of this very recording.
    assertEquals(truth.secondsAtLoad().get(1), s1, TIME_TOL_S);
    assertEquals(truth.secondsAtLoad().get(2), s2, TIME_TOL_S);
    assertEquals(truth.secondsAtLoad().get(0), s0, TIME_TOL_S);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"phases", "phases_wakeup", "phases_freq"})
  void phasesFunctionShares(String fixture) {
    GroundTruth truth = GroundTruth.of(fixture);
    JsonNode p = E2e.process(E2e.analyzeCached(E2e.trace(fixture).toString()).summary(),
        truth.pid());
    Map<String, Double> real = E2e.topFunctions(p, "flat_real_pct");
    Map<String, Double> cpu = E2e.topFunctions(p, "flat_cpu_pct");
    double serialReal = real.get("serial_phase") + real.get("tail_serial");
    double serialCpu = cpu.get("serial_phase") + cpu.get("tail_serial");
    System.out.printf("%s functions: serial+tail real %.2f%% cpu %.2f%%, parallel real %.2f%%"
        + " cpu %.2f%%%n", fixture, serialReal, serialCpu, real.get("parallel_phase"),
        cpu.get("parallel_phase"));
    // serial_phase 1.0 s + tail_serial 0.5 s of the 2.5 s busy: 60 %; parallel_phase 40 %.
    // A little of each phase's time is in clock_gettime (the busy loop's clock), so shares sit
    // slightly under the ideal; 2 points covers that (it is ~0.6 % here).
    assertEquals(60.0, serialReal, PCT_TOL, "serial_phase + tail_serial, % of real time");
    assertEquals(40.0, real.get("parallel_phase"), PCT_TOL, "parallel_phase, % of real time");
    assertEquals(42.86, serialCpu, PCT_TOL, "serial_phase + tail_serial, % of CPU time");
    assertEquals(57.14, cpu.get("parallel_phase"), PCT_TOL, "parallel_phase, % of CPU time");
    // Each function's own average load is what its phase had.
    Map<String, Double> avg = E2e.topFunctions(p, "avg_load");
    assertEquals(1.0, avg.get("serial_phase"), 0.02);
    assertEquals(1.0, avg.get("tail_serial"), 0.02);
    assertEquals(2.0, avg.get("parallel_phase"), 0.02);
  }

  @Test
  void onlyTheFrequencySampledTraceWarnsAboutLostSwitches() {
    JsonNode freq = E2e.analyzeCached(E2e.trace("phases_freq").toString()).summary()
        .get("runs").get(0);
    List<String> warnings = texts(freq.get("warnings"));
    assertTrue(warnings.stream().anyMatch(w -> w.contains("frequency-sampled")),
        "phases_freq warnings: " + warnings);
    assertThat(freq.get("health").get("switches_lost_to_sampling").asLong(), greaterThan(0L));
    assertThat(freq.get("health").get("freq_sampled_switch_records").asLong(), greaterThan(0L));
    for (String clean : List.of("phases", "phases_wakeup", "mixed")) {
      JsonNode run = E2e.analyzeCached(E2e.trace(clean).toString()).summary().get("runs").get(0);
      assertThat(clean, texts(run.get("warnings")), empty());
      assertTrue(run.get("health").get("switches_lost_to_sampling") == null, clean);
    }
  }

  @Test
  void plainPerfScriptGivesTheSameSplitByComm() {
    GroundTruth truth = GroundTruth.of("phases"); // the same recording
    Cli cli = E2e.analyzeCached(E2e.trace("phases_plain").toString());
    JsonNode run = cli.summary().get("runs").get(0);
    assertEquals("comm", run.get("pid_source").asText());
    assertEquals("plain", run.get("layout").asText());
    List<String> warnings = texts(run.get("warnings"));
    assertTrue(warnings.stream().anyMatch(w -> w.contains("no pids")
        && w.contains("grouped into processes by name")), "warnings: " + warnings);
    JsonNode p = E2e.processByComm(cli.summary(), "phases");
    JsonNode real = p.get("realtime_histogram");
    JsonNode cpu = p.get("cpu_histogram");
    System.out.printf("phases_plain: real %.2f/%.2f cpu %.2f/%.2f%n", pct(real, 1),
        pctAtLeast2(real), pct(cpu, 1), pctAtLeast2(cpu));
    assertEquals(truth.realLoad1Pct(), pct(real, 1), PCT_TOL);
    assertEquals(truth.cpuLoad1Pct(), pct(cpu, 1), PCT_TOL);
    // Same perf.data as examples/phases.txt.gz: only the timestamps' precision (us vs ns) and
    // the pid source differ, so the split must agree far closer than the ground-truth bound.
    JsonNode fields = E2e.process(E2e.analyzeCached(E2e.trace("phases").toString()).summary(),
        truth.pid());
    assertEquals(pct(fields.get("realtime_histogram"), 1), pct(real, 1), 0.1);
    assertEquals(fields.get("samples").asLong(), p.get("samples").asLong(), 20.0);
  }

  /**
   * mixed: the WINDOW lines do not give the truth at sample level. Each "parallel" window spans
   * the hand-off (broadcast, worker wake-up latency, the last worker's signal to main), and
   * part of it runs on one thread or none; the windows say 31/69 real while the scheduler's
   * truth is near 44/56 (RECORDING.md). So the reference is the exact time at load from the run
   * intervals (time_at_load_ns), against which the sample-based histograms must agree within
   * 2 points. The windows still bound the process's span.
   */
  @Test
  void mixedHistogramsMatchTimeAtLoadFromIntervals() {
    GroundTruth truth = GroundTruth.of("mixed");
    JsonNode p = E2e.process(E2e.analyzeCached(E2e.trace("mixed").toString()).summary(),
        truth.pid());
    JsonNode t = p.get("time_at_load_ns");
    double t0 = t.get("0").asLong() / 1e9;
    double t1 = t.get("1").asLong() / 1e9;
    double t2 = t.get("2").asLong() / 1e9;
    assertTrue(t.get("3") == null, "mixed has 3 threads but never 3 on a CPU: " + t);
    double realFromIntervals = 100 * t1 / (t1 + t2);
    double cpuFromIntervals = 100 * t1 / (t1 + 2 * t2);
    JsonNode real = p.get("realtime_histogram");
    JsonNode cpu = p.get("cpu_histogram");
    System.out.printf("mixed: windows real %.2f cpu %.2f; intervals real %.2f cpu %.2f;"
        + " samples real %.2f/%.2f cpu %.2f/%.2f; time_at_load 0=%.4f 1=%.4f 2=%.4f%n",
        truth.realLoad1Pct(), truth.cpuLoad1Pct(), realFromIntervals, cpuFromIntervals,
        pct(real, 1), pctAtLeast2(real), pct(cpu, 1), pctAtLeast2(cpu), t0, t1, t2);
    assertEquals(realFromIntervals, pct(real, 1), PCT_TOL, "real at load 1: samples vs intervals");
    assertEquals(cpuFromIntervals, pct(cpu, 1), PCT_TOL, "CPU at load 1: samples vs intervals");
    // The hand-off cost must show, not be hidden: clearly more serial than the windows claim,
    // and near the 44/56 that RECORDING.md reports for real traces.
    assertThat(realFromIntervals, greaterThan(truth.realLoad1Pct() + 5));
    assertEquals(44.0, pct(real, 1), 4.0);
    // The process lived from its first to last window, plus thread creation before and the
    // printing of the windows after (a few ms): 20 ms bounds both.
    double windowsSpan = E2e.windows(E2e.windowsFile("mixed")).stream()
        .mapToDouble(Window::end).max().orElseThrow()
        - E2e.windows(E2e.windowsFile("mixed")).stream().mapToDouble(Window::start).min()
            .orElseThrow();
    assertEquals(windowsSpan, t0 + t1 + t2, 0.02, "process span vs windows span, s");
    Map<String, Double> fns = E2e.topFunctions(p, "flat_real_pct");
    assertThat(fns.keySet(), hasItem("serial_section"));
    assertThat(fns.keySet(), hasItem("parallel_section"));
    assertThat(fns.keySet(), not(hasItem("serial_phase")));
  }

  @Test
  void phasesWarningsAreQuietOnTheCleanTrace() {
    JsonNode run = E2e.analyzeCached(E2e.trace("phases").toString()).summary().get("runs").get(0);
    assertEquals("trace", run.get("pid_source").asText());
    assertEquals("fields", run.get("layout").asText());
    assertEquals("cpu-clock", run.get("sampling_event").asText());
    assertThat(run.get("cpus").asInt(), greaterThan(1));
    // The VM drops CPU 1's idle->task switches (RECORDING.md pitfall 2): they must be repaired.
    assertThat(run.get("health").get("chain_breaks_repaired").asLong(), greaterThan(0L));
    assertThat(run.toString(), not(containsString("UNUSABLE")));
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
