package dev.loadprof.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.EventBlock;
import dev.loadprof.model.TraceHealth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One test per edge case of building run intervals from a real trace's switch chain. Each case
 * is a tiny trace; times are in microseconds; the sample interval is 250 us, so a repaired start
 * is 125 us (half an interval) before the first evidence.
 */
class CpuTimelineTest {
  static final int PID = 10;

  @Test
  void threadCarriesOverWindowsInWhichItsCpuRecordsNothing() {
    // 1 ms windows; 11 runs from 100 us to 5100 us with no event in windows 1..4.
    TimelineCase c = new TimelineCase(1_000).thread(PID, 11)
        .sw(100, 0, 0, 0, 11)
        .sw(5_100, 0, PID, 11, 0)
        .finish();
    assertEquals(List.of("11@100-5100"), c.intervals(0));
    assertEquals(6, c.blocks.size(), "one block per window 0..5, the empty ones carried over");
  }

  @Test
  void threadBeforeTheFirstSwitchStartsHalfAnIntervalBeforeItsFirstSample() {
    TimelineCase c = new TimelineCase().thread(PID, 11)
        .sw(0, 1, 0, 0, 0) // the run starts at 0 (another CPU)
        .samples(1_000, 2_001, 0, PID, 11)
        .sw(2_100, 0, PID, 11, 0)
        .finish();
    assertEquals(List.of("11@875-2100"), c.intervals(0));
    assertEquals(1, c.health(TraceHealth.EDGES_INFERRED));
  }

  @Test
  void threadBeforeTheFirstSwitchNeverSampledRanAtMostHalfAnInterval() {
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(PID, 12)
        .sw(0, 1, 0, 0, 0)
        .sample(10, 3, 30, 31) // some sample in the run, so its sample interval is known
        .sw(60, 0, PID, 11, 0) // near the trace start: it may have run since the start
        .sw(1_000, 2, PID, 12, 0) // long after: it would have been sampled had it run long
        .finish();
    assertEquals(List.of("11@0-60"), c.intervals(0));
    assertEquals(List.of("12@875-1000"), c.intervals(2));
  }

  @Test
  void threadAfterTheLastSwitchStopsHalfAnIntervalAfterItsLastSample() {
    TimelineCase c = new TimelineCase().thread(PID, 11)
        .sw(100, 0, 0, 0, 11)
        .samples(200, 2_000, 0, PID, 11) // last sample at 1950
        .sw(5_000, 1, 0, 0, 0) // the trace goes on until 5000 on another CPU
        .finish();
    assertEquals(List.of("11@100-2075"), c.intervals(0));
  }

  @Test
  void threadAfterTheLastSwitchIsCarriedIntoLaterWindowsUntilItsLastSample() {
    TimelineCase c = new TimelineCase(1_000).thread(PID, 11)
        .sw(100, 0, 0, 0, 11)
        .samples(200, 3_000, 0, PID, 11) // last sample at 2950, in window 2
        .sw(9_000, 1, 0, 0, 0)
        .finish();
    assertEquals(List.of("11@100-3075"), c.intervals(0));
  }

  @Test
  void chainBreakWithoutWakeupStartsHalfAnIntervalBeforeTheFirstSample() {
    // "11 ==> idle" and then "12 ==> 13": nothing switched 12 in.
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(PID, 12).thread(PID, 13)
        .sw(0, 1, 0, 0, 11)
        .sw(100, 1, PID, 11, 0)
        .samples(1_000, 1_800, 1, PID, 12)
        .sw(1_800, 1, PID, 12, 13)
        .sw(1_850, 1, PID, 13, 0)
        .finish();
    assertEquals(List.of("11@0-100", "12@875-1800", "13@1800-1850"), c.intervals(1));
    assertEquals(1, c.health(TraceHealth.CHAIN_BREAKS_REPAIRED));
    assertEquals(0, c.health(TraceHealth.CHAIN_BREAKS_FROM_WAKEUP));
  }

  @Test
  void chainBreakWithWakeupStartsAtTheWakeup() {
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(PID, 12)
        .sw(0, 1, 0, 0, 11)
        .sw(100, 1, PID, 11, 0)
        .wakeup(950, 0, 12, 1) // recorded on CPU 0, for CPU 1
        .samples(1_000, 1_800, 1, PID, 12)
        .sw(1_800, 1, PID, 12, 0)
        .finish();
    assertEquals(List.of("11@0-100", "12@950-1800"), c.intervals(1));
    assertEquals(1, c.health(TraceHealth.CHAIN_BREAKS_FROM_WAKEUP));
  }

  @Test
  void chainBreakOfAThreadNeverSampledEndsAtItsSwitchOut() {
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(PID, 12)
        .sw(0, 1, 0, 0, 11)
        .sw(100, 1, PID, 11, 0)
        .sample(10, 3, 30, 31) // some sample in the run, so its sample interval is known
        .sw(1_000, 1, PID, 12, 0)
        .finish();
    assertEquals(List.of("11@0-100", "12@875-1000"), c.intervals(1));
  }

  /**
   * 12 was switched in without a record and out unsampled: it starts midway between its CPU's
   * last tick and its switch-out. CPU 1's timer ticks at 10, 260, 510, 760, 1010, 1260 (the
   * samples of 11 date them).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      after the tick at 760                             | 1000000 | 500 | 800  | 11@0-500 | 12@780-800
      not before the CPU went idle at 780               | 1000000 | 780 | 800  | 11@0-780 | 12@790-800
      760 is within the jitter of 770: after 510        | 1000000 | 500 | 770  | 11@0-500 | 12@640-770
      the tick carried from window 0 into window 1      | 1000    | 500 | 1300 | 11@0-500 | 12@1280-1300
      """)
  void neverSampledThreadStartsMidwayBetweenItsCpusLastTickAndItsSwitchOut(String why,
      long windowUs, long idleUs, long outUs, String first, String second) {
    TimelineCase c = neverSampledAfterTicks(windowUs, idleUs, outUs).finish();
    assertEquals(List.of(first, second), c.intervals(1));
  }

  @Test
  void withoutOneTimerPerCpuANeverSampledThreadRanHalfAnInterval() {
    // A per-thread lane's samples come from that thread's own timer, and a non-time event's
    // samples are not periodic in time: neither dates the CPU's ticks.
    TimelineCase c = neverSampledAfterTicks(1_000_000, 500, 800).finish();
    EventBlock b = c.blocks.stream().filter(x -> x.cpu == 1).findFirst().orElseThrow();
    b.threadLane = true;
    CpuTimeline.replay(b, true);
    assertEquals(List.of("11@0-500", "12@675-800"), c.intervals(1));
    b.threadLane = false;
    b.periodIsNanoseconds = false;
    CpuTimeline.replay(b, true);
    assertEquals(List.of("11@0-500", "12@675-800"), c.intervals(1));
  }

  /** 11 runs on CPU 1 from 0, sampled at 10 and 260, idle at idleUs; 12 switched out at outUs. */
  private static TimelineCase neverSampledAfterTicks(long windowUs, long idleUs, long outUs) {
    return new TimelineCase(windowUs).thread(PID, 11).thread(PID, 12)
        .sw(0, 1, 0, 0, 11)
        .sample(10, 1, PID, 11)
        .sample(260, 1, PID, 11)
        .sw(idleUs, 1, PID, 11, 0)
        .sw(outUs, 1, PID, 12, 0)
        .sw(outUs + 500, 0, 0, 0, 0); // the trace goes on elsewhere
  }

  @Test
  void chainBreakNeverReachesBackBeforeTheCpuWentIdle() {
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(PID, 12)
        .sw(0, 1, 0, 0, 11)
        .sw(100, 1, PID, 11, 0)
        .sample(150, 1, PID, 12) // 150 - 125 would be before 11 stopped at 100
        .sw(200, 1, PID, 12, 0)
        .finish();
    assertEquals(List.of("11@0-100", "12@100-200"), c.intervals(1));
  }

  @Test
  void chainBreakAcrossAWindowEdgeKeepsTheThreadRunning() {
    TimelineCase c = new TimelineCase(1_000).thread(PID, 11).thread(PID, 12)
        .sw(0, 1, 0, 0, 11)
        .sw(100, 1, PID, 11, 0)
        .samples(900, 1_500, 1, PID, 12) // 900 in window 0; 1150, 1400 in window 1
        .sw(1_500, 1, PID, 12, 0)
        .finish();
    assertEquals(List.of("11@0-100", "12@775-1500"), c.intervals(1));
  }

  @Test
  void sampleOfAnotherThreadRepairsAMissingTaskToTaskSwitch() {
    // Seen on CPU 1 of the project's VMs: "11 ==> 13", then 11 is sampled with no switch back.
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(20, 13)
        .sw(100, 0, 0, 0, 11)
        .samples(200, 500, 0, PID, 11)
        .sw(500, 0, PID, 11, 13)
        .samples(700, 1_000, 0, PID, 11)
        .sw(1_000, 0, PID, 11, 0)
        .finish();
    assertEquals(List.of("11@100-500", "13@500-575", "11@575-1000"), c.intervals(0));
    assertEquals(1, c.health(TraceHealth.SAMPLES_CONTRADICTED));
  }

  @Test
  void idleSampleEndsAThreadWhoseSwitchOutIsMissing() {
    TimelineCase c = new TimelineCase().thread(PID, 11)
        .sw(100, 0, 0, 0, 11)
        .samples(200, 500, 0, PID, 11) // last sample at 450
        .sample(2_000, 0, 0, 0) // the idle task is sampled: the CPU went idle
        .sw(3_000, 1, 0, 0, 0)
        .finish();
    assertEquals(List.of("11@100-575"), c.intervals(0));
  }

  @Test
  void frequencySampledSwitchesAreCountedAndWarnedAbout() {
    TimelineCase c = new TimelineCase().thread(PID, 11);
    c.builder.schedSwitch(100 * TimelineCase.US, 0, 4, PID, 11, "app", "S", 0, "swapper",
        new dev.loadprof.model.Frame[0]);
    c.finish();
    assertEquals(1, c.run.health.get(TraceHealth.FREQ_SAMPLED_SWITCH_RECORDS));
    assertEquals(3, c.run.health.get(TraceHealth.SWITCHES_LOST_TO_SAMPLING));
    assertTrue(c.run.warnings.stream().anyMatch(w -> w.contains("frequency-sampled")),
        c.run.warnings.toString());
  }

  @Test
  void exitedThreadsSwitchRecordsEndTheirInterval() {
    // perf prints ":-1  10/-1" headers for a thread that already exited; its pid is unknown
    // in the header, but the thread table knows it.
    TimelineCase c = new TimelineCase().thread(PID, 11)
        .sw(100, 0, 0, 0, 11)
        .samples(200, 1_000, 0, PID, 11);
    c.builder.exit(1_000 * TimelineCase.US, PID, 11);
    c.builder.schedSwitch(1_010 * TimelineCase.US, 0, 1, dev.loadprof.model.TraceEventSink.UNKNOWN_ID,
        11, "app", "X", 0, "swapper", new dev.loadprof.model.Frame[0]);
    c.finish();
    assertEquals(List.of("11@100-1010"), c.intervals(0));
    assertEquals(1, c.run.health.get(TraceHealth.EXITED_THREAD_SWITCHES));
  }

  @Test
  void loadCountsTheOtherCpusRunningTheSameProcess() {
    // Two threads of PID run together from 0 to 1000 us, then one alone until 2000 us; a
    // thread of another process runs meanwhile on CPU 2 and does not count.
    TimelineCase c = new TimelineCase().thread(PID, 11).thread(PID, 12).thread(20, 21)
        .sw(0, 0, 0, 0, 11).sw(0, 1, 0, 0, 12).sw(0, 2, 0, 0, 21);
    for (long t = 100; t < 2_000; t += 250) {
      c.sample(t, 0, PID, 11);
      if (t < 1_000) {
        c.sample(t + 10, 1, PID, 12);
      }
      c.sample(t + 20, 2, 20, 21);
    }
    c.sw(1_000, 1, PID, 12, 0).sw(2_000, 0, PID, 11, 0).sw(2_000, 2, 20, 21, 0).finish();
    Map<Integer, ProcessAccumulator> byPid = c.join();
    ProcessAccumulator app = byPid.get(PID);
    assertEquals(4, app.samplesAtLoad[1], "samples of 11 after 12 stopped");
    assertEquals(8, app.samplesAtLoad[2], "samples of 11 and 12 while both ran");
    assertEquals(1_000_000, app.timeAtLoadNs[1]);
    assertEquals(1_000_000, app.timeAtLoadNs[2]);
    assertEquals(8, byPid.get(20).samplesAtLoad[1]);
  }
}
