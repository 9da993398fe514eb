package dev.loadprof.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.loadprof.parse.PerfScriptParser;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * For sampling events not counted in nanoseconds (cycles, instructions), loadprof's stated
 * conversion: each sample stands for the run's median time between consecutive samples of a
 * running thread on one CPU, whatever its period in event units. In perf's default frequency
 * mode the kernel spaces samples evenly in time and varies the period, so equal weights are right.
 */
class NonTimeEventTest {

  @Test
  void cyclesSamplesWeighTheMedianSampleInterval() throws Exception {
    StringBuilder t = new StringBuilder();
    t.append("swapper     0/0     [000]     1.000000000:          1 sched:sched_switch:"
        + " prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app"
        + " next_pid=11 next_prio=120\n\n");
    // 11 runs 1.000 s .. 1.020 s on CPU 0, sampled every 1 ms with a varying cycle count.
    for (int i = 1; i <= 19; i++) {
      long period = 2_400_000 + (i % 3) * 150_000;
      t.append(String.format("app    10/11    [000]     1.%03d000000: %10d          cycles: %n",
          i, period));
      t.append("\t            12f0 work (/bin/app)\n\n");
    }
    t.append("app    10/11    [000]     1.020000000:          1 sched:sched_switch:"
        + " prev_comm=app prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0"
        + " next_pid=0 next_prio=120\n\n");
    InMemoryAnalysis a = InMemoryAnalysis.of(new PerfScriptParser(),
        new ByteArrayInputStream(t.toString().getBytes(StandardCharsets.UTF_8)), "cycles",
        1_000_000_000L);
    assertEquals("cycles", a.run.samplingEvent);
    assertFalse(a.run.periodIsNanoseconds);
    assertEquals(1_000_000, a.run.sampleIntervalNs, "median gap between samples");
    ProcessAccumulator app = a.processes.get(10);
    assertEquals(19, app.samples);
    assertEquals(19 * 1_000_000L, app.cpuNsAtLoad[1], "each sample stands for 1 ms of CPU");
    assertEquals(20_000_000L, app.timeAtLoadNs[1], "the interval from the switches is exact");
  }
}
