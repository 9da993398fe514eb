package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import org.junit.jupiter.api.Test;

/**
 * Switch records that name a thread whose process is unknown: a thread that no record of the
 * trace belongs to (on these VMs the host agent's threads on CPU 1, whose own records perf never
 * writes) is counted apart and does not warn; a thread that is known only later (its FORK lost,
 * its own records after the window) still warns, since its process's load was undercounted.
 */
class UnknownThreadSwitchesTest {
  private static final long MS = 1_000_000L;
  private static final Frame[] NO_STACK = new Frame[0];

  /** 20 switches into "agent" (tid 75), which never has a record of its own. */
  private static BlockBuilder switchesToAnUnseenThread() {
    BlockBuilder b = new BlockBuilder("run", "t.data", 10 * MS, null, blocks -> { });
    for (int i = 0; i < 20; i++) {
      long t = (1 + 2L * i) * MS;
      b.sample(t, 1, 10, 10, "app", "cpu-clock", 250_000, NO_STACK);
      b.schedSwitch(t + 1, 1, 1, 10, 10, "app", "S", 75, "agent", NO_STACK);
      // perf wrote no record of 75's own, so the next switch on CPU 1 starts from the idle task.
      b.schedSwitch(t + MS, 1, 1, 0, 0, "swapper/1", "R", 10, "app", NO_STACK);
    }
    return b;
  }

  @Test
  void aThreadThatNoRecordBelongsToIsCountedApartWithoutAWarning() {
    RunInfo info = switchesToAnUnseenThread().finish();
    assertEquals(20, info.health.get(TraceHealth.UNSEEN_THREAD_SWITCHES));
    assertEquals(0, info.health.get(TraceHealth.UNKNOWN_PID_SWITCHES));
    assertTrue(info.warnings.stream().noneMatch(w -> w.contains("process is unknown")),
        info.warnings::toString);
  }

  @Test
  void aThreadKnownOnlyAfterItsWindowStillWarns() {
    BlockBuilder b = switchesToAnUnseenThread();
    // Thread 75 turns out to be process 70's: its own sample, after every window above.
    b.sample(60 * MS, 1, 70, 75, "agent", "cpu-clock", 250_000, NO_STACK);
    RunInfo info = b.finish();
    assertEquals(0, info.health.get(TraceHealth.UNSEEN_THREAD_SWITCHES));
    assertTrue(info.health.get(TraceHealth.UNKNOWN_PID_SWITCHES) >= 10,
        info.health.counters()::toString);
    assertTrue(info.warnings.stream().anyMatch(w -> w.contains("process is unknown")),
        info.warnings::toString);
  }
}
