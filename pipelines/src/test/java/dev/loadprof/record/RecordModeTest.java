package dev.loadprof.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The perf record command each mode builds collects what the whole-wall view needs: system-wide
 * the switch-out stacks (-g on sched_switch) and wake-ups, per process the context-switch
 * records (with their preempt flag); and never a global rate (-F, -c), which perf would apply to
 * the tracepoints too.
 */
class RecordModeTest {
  private static final Path DATA = Path.of("/tmp/x.data");

  /** The argument after each "-e". */
  private static List<String> events(List<String> args) {
    List<String> events = new java.util.ArrayList<>();
    for (int i = 0; i + 1 < args.size(); i++) {
      if (args.get(i).equals("-e")) {
        events.add(args.get(i + 1));
      }
    }
    return events;
  }

  private static boolean kernelHas(String tracepoint) {
    return Files.exists(Path.of("/sys/kernel/tracing/events/sched/" + tracepoint))
        || Files.exists(Path.of("/sys/kernel/debug/tracing/events/sched/" + tracepoint));
  }

  @Test
  void systemWideRecordsSwitchStacksStatesAndWakeups() {
    List<String> a = RecordMode.SYSTEM.perfRecordArgs(DATA, null);
    assertEquals(List.of("perf", "record"), a.subList(0, 2));
    assertTrue(a.contains("-a"), a.toString());
    assertEquals(1, Collections.frequency(a, "-g"), a.toString()); // call chains on every event
    assertTrue(a.containsAll(List.of("-k", "mono")), a.toString());
    List<String> events = events(a);
    assertTrue(events.contains("sched:sched_switch"), a.toString()); // prev_state, stacks
    // The wake-ups with call chains (the one -g covers them): sched_wakeup for the CPU the
    // woken thread runs on, sched_waking for the waker, whose context it always fires in.
    assertEquals(kernelHas("sched_wakeup"), events.contains("sched:sched_wakeup"),
        a.toString());
    assertEquals(kernelHas("sched_waking"), events.contains("sched:sched_waking"),
        a.toString());
    assertEquals("cpu-clock", events.get(0));
    assertFalse(a.contains("-F") || a.contains("-c"), a.toString());
    assertEquals(List.of("-o", DATA.toString()), a.subList(a.size() - 2, a.size()));
  }

  @Test
  void aRateGoesOnTheSamplingEventOnly() {
    List<String> a = RecordMode.SYSTEM.perfRecordArgs(DATA, "500");
    assertEquals("cpu-clock/freq=500/", events(a).get(0));
    assertTrue(events(a).contains("sched:sched_switch"), a.toString());
    assertFalse(a.contains("-F") || a.contains("-c"), a.toString());
    assertEquals("cpu-clock/freq=500/u", events(RecordMode.PROCESS.perfRecordArgs(DATA, "500"))
        .get(0));
  }

  @Test
  void perProcessRecordsContextSwitchesWithTheirPreemptFlag() {
    List<String> a = RecordMode.PROCESS.perfRecordArgs(DATA, null);
    assertTrue(a.contains("--switch-events"), a.toString()); // OUT / OUT preempt per thread
    assertTrue(a.contains("--sample-cpu"), a.toString());
    assertTrue(a.contains("-g"), a.toString());
    assertEquals(List.of("cpu-clock:u"), events(a)); // no tracepoint (no wake-ups): not allowed
    assertFalse(a.contains("-a"), a.toString());
    assertFalse(a.contains("-F") || a.contains("-c"), a.toString());
  }
}
