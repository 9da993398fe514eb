package dev.loadprof.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.model.ProcessKey;
import dev.loadprof.parse.PerfScriptParser;
import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * One execution of {@code mixed 40 2} (pid 22486) recorded twice at once on the project's VM:
 * per process by nobody ({@code cpu-clock:u --switch-events --sample-cpu}, each thread's exact
 * IN/OUT records) and system-wide by root ({@code -a -e cpu-clock:u -e sched:sched_switch -e
 * sched:sched_wakeup}, where CPU 1's switch-ins from idle are never recorded and are repaired from
 * the samples). Both must give the process the same time at each load.
 *
 * <p>The system-wide recording began 1.37 s before its first user-mode sample, so its first
 * window had switches and no sample. The sample interval was then fixed at the 1 ms fallback
 * instead of cpu-clock's 250 us, and each repaired switch-in started 375 us early: time at load
 * 2 came out 0.474 of the time on CPU against 0.432 per process. (RecordIT's one disagreement in
 * CI, 0.712 against 0.650 at load 2, went the same way; its recordings were not kept.)
 */
class OneExecutionTwoRecordingsTest {
  private static final long WINDOW_NS = 1_000_000_000L; // the CLI's default window
  private static final int PID = 22486;

  @Test
  void theSystemWideRecordingGivesThePerProcessLoads() throws IOException {
    InMemoryAnalysis perProcess = analyze("mixed-per-process.txt.gz");
    InMemoryAnalysis systemWide = analyze("mixed-system-wide.txt.gz");

    long[] exact = mixed(perProcess).timeAtLoadNs;
    long[] repaired = mixed(systemWide).timeAtLoadNs;
    for (int load = 1; load <= 2; load++) {
      // 0.04 points apart with the fix, 0.09 since never-sampled runs are dated by their CPU's
      // ticks and the per-process run starts at its exec (bench/RESULTS.md, section 27); each
      // of CPU 1's ~80 repaired starts is off by up to an interval.
      assertEquals(shareOfTimeOnCpu(exact, load), shareOfTimeOnCpu(repaired, load), 0.005,
          "share of the time on CPU at load " + load);
    }
    assertEquals(250_000, systemWide.run.sampleIntervalNs);
  }

  /** The process after its exec of mixed (before it, pid 22486 was perf's forked child). */
  private static ProcessAccumulator mixed(InMemoryAnalysis analysis) {
    return analysis.processes.values().stream()
        .filter(p -> ProcessKey.pid(p.pid) == PID)
        .max(Comparator.comparingLong(p -> p.samples)).orElseThrow();
  }

  private static double shareOfTimeOnCpu(long[] timeAtLoadNs, int load) {
    long onCpu = 0;
    for (int k = 1; k < timeAtLoadNs.length; k++) {
      onCpu += timeAtLoadNs[k];
    }
    return load < timeAtLoadNs.length ? (double) timeAtLoadNs[load] / onCpu : 0;
  }

  private static InMemoryAnalysis analyze(String name) throws IOException {
    try (InputStream in = new GZIPInputStream(
        OneExecutionTwoRecordingsTest.class.getResourceAsStream("/traces/pair/" + name))) {
      return InMemoryAnalysis.of(new PerfScriptParser(), in, name, WINDOW_NS);
    }
  }
}
