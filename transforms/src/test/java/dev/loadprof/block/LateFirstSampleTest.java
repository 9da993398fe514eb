package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.load.CpuTimeline;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A system-wide recording whose first window has switches but no sample: perf started on a quiet
 * machine with a :u event (kernel threads switch, nothing runs in user mode), and the program
 * started later. The sample interval then comes from the samples when they arrive, not from a
 * guess fixed before them. Seen on a real pair (bench pair loop, 2026-11-27): the first user-mode
 * sample came 1.37 s after perf started, the interval was fixed at the 1 ms fallback instead of
 * cpu-clock's 250 us, every repaired switch-in on CPU 1 started 375 us early, and mixed 40 2's
 * time at load 2 came out 12 ms (4 points) above the per-process recording of the same execution.
 */
class LateFirstSampleTest {
  private static final long MS = 1_000_000L;
  private static final long US = 1_000L;
  private static final Frame[] NO_STACK = new Frame[0];

  @Test
  void theIntervalComesFromTheSamplesEvenWhenTheFirstWindowHasNone() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "sys.data", 1000 * MS, "cpu-clock:u", blocks::add);
    // 1.5 s of a kernel thread's switches on both CPUs and no sample.
    for (long t = 0; t < 1500 * MS; t += 100 * MS) {
      for (int cpu = 0; cpu < 2; cpu++) {
        b.schedSwitch(t + cpu * US, cpu, 1, 0, 0, "swapper/" + cpu, "R", 15, "rcu", NO_STACK);
        b.schedSwitch(t + 10 * US + cpu * US, cpu, 1, 15, 15, "rcu", "I", 0, "swapper/" + cpu,
            NO_STACK);
      }
    }
    // The program: its thread 101 runs on CPU 1, switched in without a record (as on the
    // project's VMs), first sampled at 1600.030 ms, every 250 us until it sleeps.
    long firstSample = 1600 * MS + 30 * US;
    for (int i = 0; i < 8; i++) {
      b.sample(firstSample + i * 250 * US, 1, 100, 101, "mixed", "cpu-clock:u", 250_000, NO_STACK);
      b.sample(firstSample + 100 * US + i * 250 * US, 0, 100, 100, "mixed", "cpu-clock:u", 250_000,
          NO_STACK);
    }
    b.schedSwitch(1602 * MS + 100 * US, 1, 1, 100, 101, "mixed", "S", 0, "swapper/1", NO_STACK);
    // Later windows, so that the program's window is emitted before the end of the trace.
    b.schedSwitch(2500 * MS, 0, 1, 100, 100, "mixed", "S", 0, "swapper/0", NO_STACK);
    b.schedSwitch(3500 * MS, 1, 1, 0, 0, "swapper/1", "R", 15, "rcu", NO_STACK);
    RunInfo info = b.finish();

    assertEquals(250_000, info.sampleIntervalNs);
    assertEquals(List.of(), info.warnings.stream().filter(w -> w.contains("interval")).toList());
    EventBlock programs = blocks.stream()
        .filter(k -> k.cpu == 1 && k.samples.count > 0).findFirst().orElseThrow();
    assertEquals(250_000, programs.sampleIntervalNs);
    CpuTimeline.replay(programs, true);
    int i = indexOfTid(programs, 101);
    // Half an interval before its first sample: 125 us, not the fallback's 500 us.
    assertEquals(firstSample - 125 * US, programs.intervals.start[i]);
    assertEquals(1602 * MS + 100 * US, programs.intervals.end[i]);
  }

  /**
   * Events not counted in ns weigh each sample by the interval: one fixed from 3 gaps of a thread
   * that ran briefly weighed the run's every sample 8 times too much.
   */
  @Test
  void cyclesWaitForEnoughGapsBeforeTheIntervalIsFixed() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "t.txt", 100 * MS, null, blocks::add);
    // Three gaps of 2 ms in the first window (a thread that ran briefly), then a steady 250 us.
    for (int i = 0; i < 4; i++) {
      b.sample(50 * MS + i * 2 * MS, 0, 7, 7, "a", "cycles", 1_000_000, NO_STACK);
    }
    for (long t = 150 * MS; t < 450 * MS; t += 250 * US) {
      b.sample(t, 0, 7, 7, "a", "cycles", 1_000_000, NO_STACK);
    }
    RunInfo info = b.finish();

    assertEquals(250_000, info.sampleIntervalNs);
    // The first window's 4 samples were weighted before that: said, with the two intervals.
    assertEquals(List.of("t.txt: 4 samples of cycles in the first windows count [2000000] ns of"
        + " CPU each, an interval measured before there were enough samples, against the run's"
        + " 250000 ns: their CPU and real time are off by that ratio (a longer --window measures"
        + " it from more samples)"),
        info.warnings.stream().filter(w -> w.contains("interval")).toList());
  }

  private static int indexOfTid(EventBlock block, int tid) {
    for (int i = 0; i < block.intervals.count; i++) {
      if (block.intervals.tid[i] == tid) {
        return i;
      }
    }
    throw new AssertionError("no interval of " + tid + ": " + block.intervals);
  }
}
