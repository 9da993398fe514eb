package dev.loadprof.block;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.Samples;
import dev.loadprof.model.StackTable;
import dev.loadprof.model.Switches;
import dev.loadprof.model.Wakeups;

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

  OpenBlock(int cpu, long window, CpuState carryIn) {
    this.cpu = cpu;
    this.window = window;
    this.carryIn = carryIn;
  }

  void addSample(long t, int tid, int pid, long period, Frame[] stack) {
    samples.add(t, tid, pid, period, stacks.idOf(stack));
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
    b.stackTable = stacks.build();
    return b;
  }
}
