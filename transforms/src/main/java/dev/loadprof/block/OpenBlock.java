package dev.loadprof.block;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.Samples;
import dev.loadprof.model.StackTable;
import dev.loadprof.model.Switches;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.Wakeups;
import java.util.Arrays;

/**
 * One block being filled: the events of one CPU in one window, as they arrive. Events out of time
 * order within the window are sorted back when the block is finished, and repeated events are
 * dropped (counted in {@link #duplicateSamples} and the like).
 */
final class OpenBlock {
  final int cpu;
  final long window;
  final CpuState carryIn;
  final Samples samples = new Samples();
  final Switches switches = new Switches();
  final Wakeups wakeups = new Wakeups();
  private final StackTable.Builder stacks = new StackTable.Builder();
  int duplicateSamples;
  int duplicateSwitches;
  int duplicateWakeups;
  /** The time of this block's first dropped repeat, if any (for the warning that says where). */
  long firstDuplicateNs = Long.MAX_VALUE;

  OpenBlock(int cpu, long window, CpuState carryIn) {
    this.cpu = cpu;
    this.window = window;
    this.carryIn = carryIn;
  }

  void addSample(long t, int tid, int pid, long period, Frame[] stack, int cpu) {
    samples.add(t, tid, pid, period, stacks.idOf(stack), cpu);
  }

  /** A sched_switch; an empty prevStack (the trace has none) is kept as UNKNOWN_ID. */
  void addSwitch(long t, int prevTid, int prevPid, int nextTid, int nextPid, int prevStateCode,
      Frame[] prevStack) {
    int stackId = prevStack == null || prevStack.length == 0 ? TraceEventSink.UNKNOWN_ID
        : stacks.idOf(prevStack);
    switches.add(t, prevTid, prevPid, nextTid, nextPid, prevStateCode, stackId);
  }

  /** The finished block: trimmed copies of the columns, with this block's place and carry-in. */
  EventBlock toBlock(String runId, long windowNs) {
    EventBlock b = new EventBlock();
    b.runId = runId;
    b.cpu = cpu;
    b.window = window;
    b.windowStartNs = window * windowNs;
    b.windowEndNs = (window + 1) * windowNs;
    b.carryIn = carryIn.copy();
    b.samples = samples.inTimeOrderWithoutRepeats(samples.time);
    b.switches = switches.inTimeOrderWithoutRepeats(switches.time);
    b.wakeups = wakeups.inTimeOrderWithoutRepeats(wakeups.time);
    duplicateSamples = samples.count - b.samples.count;
    duplicateSwitches = switches.count - b.switches.count;
    duplicateWakeups = wakeups.count - b.wakeups.count;
    firstDuplicateNs = Math.min(firstDropped(samples.time, samples.count, b.samples.time, b.samples.count),
        Math.min(firstDropped(switches.time, switches.count, b.switches.time, b.switches.count),
            firstDropped(wakeups.time, wakeups.count, b.wakeups.time, b.wakeups.count)));
    b.stackTable = stacks.build();
    return b;
  }

  /**
   * The earliest time that has more rows before the repeats were dropped than after, or
   * Long.MAX_VALUE. Repeats are rare, so this sorts copies only when there is one.
   */
  private static long firstDropped(long[] all, int allCount, long[] kept, int keptCount) {
    if (allCount == keptCount) {
      return Long.MAX_VALUE;
    }
    long[] before = Arrays.copyOf(all, allCount);
    long[] after = Arrays.copyOf(kept, keptCount);
    Arrays.sort(before);
    Arrays.sort(after);
    for (int i = 0; i < keptCount; i++) {
      if (before[i] != after[i]) {
        return before[i];
      }
    }
    return before[keptCount];
  }
}
