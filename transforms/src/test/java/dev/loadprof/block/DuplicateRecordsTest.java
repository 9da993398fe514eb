package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A record written twice (perf 6.1 did so for 7 sched_switch records of a clean system-wide
 * recording: byte-identical, same sample id, at two file offsets) is dropped once, counted, and
 * the warning says where the first one was.
 */
class DuplicateRecordsTest {
  private static final long MS = 1_000_000L;
  private static final Frame[] NO_STACK = new Frame[0];

  @Test
  void aSwitchWrittenTwiceIsDroppedAndTheWarningSaysWhere() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "t.txt", 100 * MS, null, blocks::add);
    b.sample(1 * MS, 0, 10, 10, "a", "cpu-clock", 250_000, NO_STACK);
    b.sample(1 * MS, 1, 20, 20, "c", "cpu-clock", 250_000, NO_STACK);
    b.schedSwitch(2 * MS, 1, 1, 20, 20, "c", "S", 0, "swapper/1", NO_STACK);
    b.schedSwitch(5 * MS, 0, 1, 10, 10, "a", "R", 11, "b", NO_STACK);
    b.schedSwitch(7 * MS + 123, 0, 1, 11, 11, "b", "S", 10, "a", NO_STACK);
    b.schedSwitch(7 * MS + 123, 0, 1, 11, 11, "b", "S", 10, "a", NO_STACK);
    b.sample(8 * MS, 0, 10, 10, "a", "cpu-clock", 250_000, NO_STACK);
    RunInfo info = b.finish();

    assertEquals(1, info.health.get(TraceHealth.DUPLICATE_SWITCHES));
    assertEquals(0, info.health.get(TraceHealth.DUPLICATE_SAMPLES));
    String warning = String.join("\n", info.warnings);
    assertTrue(warning.contains("1 duplicate records (the same event twice on one CPU; first:"
        + " CPU 0 at 0.007000123 s) were dropped"), warning);
    int switchesKept = blocks.stream().mapToInt(k -> k.switches.count).sum();
    assertEquals(3, switchesKept);
  }

  @Test
  void aCleanTraceHasNoDuplicateWarning() {
    BlockBuilder b = new BlockBuilder("run", "t.txt", 100 * MS, null, blocks -> { });
    b.sample(1 * MS, 0, 10, 10, "a", "cpu-clock", 250_000, NO_STACK);
    b.schedSwitch(5 * MS, 0, 1, 10, 10, "a", "R", 11, "b", NO_STACK);
    b.schedSwitch(7 * MS, 0, 1, 11, 11, "b", "S", 10, "a", NO_STACK);
    b.schedSwitch(7 * MS, 0, 1, 10, 10, "a", "S", 11, "b", NO_STACK); // same instant, another event
    RunInfo info = b.finish();

    assertEquals(0, info.health.get(TraceHealth.DUPLICATE_SWITCHES));
    assertTrue(info.warnings.stream().noneMatch(w -> w.contains("duplicate")), info.warnings::toString);
  }
}
