package dev.loadprof.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.PerfScriptParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Per-process recordings (PERF_RECORD_SWITCH, no [cpu] column): each thread is its own lane, and
 * a sample's load is 1 + the other threads of its process between an IN and an OUT.
 */
class ThreadLanesTest {
  private static final long MS = 1_000_000L;

  /** Thread 10 runs 0..10 ms (its first IN is before the trace), thread 11 runs 4..8 ms. */
  private static String twoThreads(boolean dropSecondOut) {
    return twoThreads(dropSecondOut, false);
  }

  private static String twoThreads(boolean dropSecondOut, boolean secondExits) {
    List<String> lines = new ArrayList<>();
    lines.add("w  10/10  1.000000000: PERF_RECORD_COMM exec: w:10/10");
    for (long t = 0; t < 10; t++) {
      sample(lines, 10, t * MS + 250_000);
      if (t == 3) {
        lines.add("w  10/10  1.003000000: PERF_RECORD_FORK(10:11):(10:10)");
        lines.add("w  10/11  1.004000000: PERF_RECORD_SWITCH IN         ");
      }
      if (t >= 4 && t < 8) {
        sample(lines, 11, t * MS + 500_000);
      }
      if (t == 8 && !dropSecondOut) {
        lines.add("w  10/11  1.008000000: PERF_RECORD_SWITCH OUT");
      }
      if (t == 8 && secondExits) {
        lines.add("w  10/11  1.008000000: PERF_RECORD_EXIT(10:11):(10:10)");
      }
    }
    lines.add("w  10/10  1.010000000: PERF_RECORD_SWITCH OUT");
    return String.join("\n", lines) + "\n";
  }

  private static void sample(List<String> lines, int tid, long offsetNs) {
    lines.add(String.format("w  10/%d  1.%09d:    250000 cpu-clock:u: ", tid, offsetNs));
    lines.add("\t  1000 work_" + tid + " (/w)");
    lines.add("");
  }

  private static InMemoryAnalysis analyze(String text) throws IOException {
    return InMemoryAnalysis.of(new PerfScriptParser(),
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t", 1000 * MS);
  }

  @Test
  void loadCountsTheOtherThreadsThatAreIn() throws IOException {
    InMemoryAnalysis a = analyze(twoThreads(false));
    ProcessAccumulator p = a.processes.get(10);
    // 10 samples of thread 10 (4 of them while 11 is in) + 4 of thread 11 (all while 10 runs).
    assertEquals(14, p.samples);
    assertEquals(6, p.samplesAtLoad[1]);
    assertEquals(8, p.samplesAtLoad[2]);
    // Wall time: thread 11 in for 4 ms of thread 10's run.
    assertEquals(4 * MS, p.timeAtLoadNs[2]);
    assertEquals(0, a.run.health.get(TraceHealth.CHAIN_BREAKS_REPAIRED));
    assertEquals(0, a.run.health.get(TraceHealth.THREADS_IN_AT_END));
    assertTrue(a.run.warnings.get(0).contains("per-thread context-switch records"),
        a.run.warnings.toString());
  }

  @Test
  void aMissingOutIsRepairedAndATraceEndingWhileInIsCounted() throws IOException {
    InMemoryAnalysis a = analyze(twoThreads(true));
    ProcessAccumulator p = a.processes.get(10);
    // Without its OUT, thread 11 stops half a sample interval after its last sample (7.5 ms).
    assertEquals(3_625_000, p.timeAtLoadNs[2]);
    assertEquals(1, a.run.health.get(TraceHealth.THREADS_IN_AT_END));
    assertArrayEquals(new long[] {0, 6, 8}, java.util.Arrays.copyOf(p.samplesAtLoad, 3));
  }

  /**
   * perf enables a per-process recording's events at the program's exec, so its first timed
   * record is the exec, while the thread runs: it ran from there, not from its first sample
   * (seen on `loadprof record --mode process -- mixed 40 2`: 252 us of the main thread's first
   * run left out, against the system-wide recording of the same execution).
   */
  @Test
  void aRecordingThatBeginsAtTheExecHasTheThreadRunningFromIt() throws IOException {
    String text = "perf-exec     0/0         0.000000000: PERF_RECORD_COMM: perf-exec:10/10\n"
        + "w  10/10  1.000000000: PERF_RECORD_COMM exec: w:10/10\n"
        + "w  10/10  1.000200000:    250000 cpu-clock:u: \n\t  1000 work_10 (/w)\n\n"
        + "w  10/10  1.000450000:    250000 cpu-clock:u: \n\t  1000 work_10 (/w)\n\n"
        + "w  10/10  1.000500000: PERF_RECORD_SWITCH OUT\n";
    InMemoryAnalysis a = analyze(text);
    // The process after the exec (its key is not the pid: ProcessKey).
    ProcessAccumulator p = a.processes.values().stream().filter(x -> x.samples > 0)
        .findFirst().orElseThrow();
    assertEquals(2, p.samples);
    assertEquals(500_000, p.timeAtLoadNs[1]);
    assertEquals(1_000_000_000, p.spanStartNs);
    assertEquals(0, a.run.health.get(TraceHealth.EDGES_INFERRED));
  }

  /**
   * A per-thread recording has no OUT for an exiting thread's last switch: the EXIT ends its run
   * (else it stayed "on a CPU", and a 2-CPU recording showed time at load 3).
   */
  @Test
  void anExitEndsTheThreadsRun() throws IOException {
    InMemoryAnalysis a = analyze(twoThreads(true, true));
    ProcessAccumulator p = a.processes.get(10);
    assertEquals(4 * MS, p.timeAtLoadNs[2]);
    assertEquals(0, a.run.health.get(TraceHealth.THREADS_IN_AT_END));
    assertEquals(0, a.run.health.get(TraceHealth.CHAIN_BREAKS_REPAIRED));
  }
}
