package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.schemas.EventBlockRecord;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Blocks keep each switch whole: why the thread left its CPU (prev_state, or a per-thread OUT's
 * preempt flag), where it was (its switch-out stack, interned with the sample stacks), and who
 * woke a thread. Archives keep them too, and archives written before read as "no detail".
 */
class SwitchDetailTest {
  private static final long MS = 1_000_000L;
  private static final Frame[] NO_STACK = new Frame[0];
  private static final Frame[] SLEEP_STACK = {new Frame("schedule", "[kernel.kallsyms]"),
      new Frame("do_nanosleep", "[kernel.kallsyms]"), new Frame("doze", "stalls")};

  @ParameterizedTest
  @CsvSource(nullValues = "null", value = {
      "R, RUNNABLE", "R+, RUNNABLE", "S, SLEEPING", "D, DISK", "D|K, DISK", "T, OTHER",
      "X, OTHER", "I, OTHER", "'', UNKNOWN", "null, UNKNOWN"})
  void prevStatesMapToCompactCodes(String prevState, ThreadState expected) {
    assertEquals(expected, ThreadState.ofCode(ThreadState.codeOfPrevState(prevState)));
  }

  @Test
  void noStateReadsAsUnknown() {
    assertEquals(ThreadState.UNKNOWN, ThreadState.ofCode(ThreadState.NO_STATE));
  }

  @Test
  void switchesKeepStateAndStackAndWakeupsTheirWaker() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "t.txt", 100 * MS, null, blocks::add);
    b.sample(1 * MS, 0, 10, 10, "a", "cpu-clock", 250_000, SLEEP_STACK);
    b.schedSwitch(2 * MS, 0, 1, 10, 10, "a", "S", 11, "b", SLEEP_STACK);
    b.schedSwitch(3 * MS, 0, 1, 10, 11, "b", "R+", 0, "swapper/0", NO_STACK);
    b.schedWakeup(4 * MS, 0, 10, 11, 10, "a", 0);
    b.schedSwitch(5 * MS, 0, 1, 0, 0, "swapper/0", "R", 10, "a", NO_STACK);
    b.finish();

    EventBlock block = blocks.get(0);
    assertEquals(3, block.switches.count);
    assertArrayEquals(new int[] {ThreadState.SLEEPING.code(), ThreadState.RUNNABLE.code(),
        ThreadState.NO_STATE}, block.switches.prevState);
    // The sleep's stack is the sample's: interned once in the block's table.
    assertEquals(block.samples.stack[0], block.switches.prevStack[0]);
    assertEquals(TraceEventSink.UNKNOWN_ID, block.switches.prevStack[1]);
    assertArrayEquals(SLEEP_STACK, block.stackTable.framesOf(block.switches.prevStack[0]));
    assertEquals(1, block.wakeups.count);
    assertEquals(11, block.wakeups.wakerTid[0]);
    assertEquals(10, block.wakeups.wakerPid[0]);

    EventBlock back = ArchiveConversions.fromRecord(ArchiveConversions.toRecord(block));
    assertEquals(block, back);
  }

  @Test
  void perThreadOutRecordsAreRunnableWhenPreemptedElseUnknown() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "t.txt", 100 * MS, null, blocks::add);
    b.contextSwitch(1 * MS, TraceEventSink.UNKNOWN_ID, 10, 10, "a", true, false);
    b.contextSwitch(2 * MS, TraceEventSink.UNKNOWN_ID, 10, 10, "a", false, true);
    b.contextSwitch(3 * MS, TraceEventSink.UNKNOWN_ID, 10, 10, "a", true, false);
    b.contextSwitch(4 * MS, TraceEventSink.UNKNOWN_ID, 10, 10, "a", false, false);
    b.finish();

    int[] states = blocks.get(0).switches.prevState;
    assertArrayEquals(new int[] {ThreadState.NO_STATE, ThreadState.RUNNABLE.code(),
        ThreadState.NO_STATE, ThreadState.UNKNOWN.code()}, states);
  }

  @Test
  void anArchiveWrittenBeforeSwitchDetailReadsAsNoDetail() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "t.txt", 100 * MS, null, blocks::add);
    b.schedSwitch(2 * MS, 0, 1, 10, 10, "a", "S", 11, "b", SLEEP_STACK);
    b.schedWakeup(4 * MS, 0, 11, 11, 10, "a", 0);
    b.finish();
    EventBlockRecord r = ArchiveConversions.toRecord(blocks.get(0));
    for (String column : List.of("switch_prev_state", "switch_prev_stack", "wakeup_waker_tid",
        "wakeup_waker_pid")) {
      r.put(column, ByteBuffer.allocate(0)); // the schema's default
    }
    EventBlock old = ArchiveConversions.fromRecord(r);
    assertEquals(ThreadState.NO_STATE, old.switches.prevState[0]);
    assertEquals(TraceEventSink.UNKNOWN_ID, old.switches.prevStack[0]);
    assertEquals(TraceEventSink.UNKNOWN_ID, old.wakeups.wakerTid[0]);
  }
}
