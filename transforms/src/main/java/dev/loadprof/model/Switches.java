package dev.loadprof.model;

import java.util.List;

/**
 * A block's sched_switch records on its CPU, sorted by time; pids as far as they are known. Each
 * keeps why its thread left the CPU ({@link ThreadState} code, {@link ThreadState#NO_STATE} when
 * the record has none) and where it was (an index into the block's stack table, UNKNOWN_ID when
 * the trace has no switch-out stacks).
 */
public final class Switches extends ColumnGroup<Switches> {
  private static final Layout<Switches> LAYOUT = new Layout<>("switch_count", Switches::new, List.of(
      Column.times("switch_time", s -> s.time, (s, v) -> s.time = v),
      Column.ints("switch_prev_tid", s -> s.prevTid, (s, v) -> s.prevTid = v),
      Column.ints("switch_prev_pid", s -> s.prevPid, (s, v) -> s.prevPid = v),
      Column.ints("switch_next_tid", s -> s.nextTid, (s, v) -> s.nextTid = v),
      Column.ints("switch_next_pid", s -> s.nextPid, (s, v) -> s.nextPid = v),
      Column.intsOrUnknown("switch_prev_state", s -> s.prevState, (s, v) -> s.prevState = v),
      Column.intsOrUnknown("switch_prev_stack", s -> s.prevStack, (s, v) -> s.prevStack = v)));

  public long[] time = new long[0];
  public int[] prevTid = new int[0];
  public int[] prevPid = new int[0];
  public int[] nextTid = new int[0];
  public int[] nextPid = new int[0];
  /** The switched-out thread's {@link ThreadState} code, or {@link ThreadState#NO_STATE}. */
  public int[] prevState = new int[0];
  /** The switched-out thread's stack in the block's stack table, or UNKNOWN_ID. */
  public int[] prevStack = new int[0];

  /** A switch that says nothing of why prev left (an exec, or a test's plain switch). */
  public void add(long t, int prevThread, int prevProcess, int nextThread, int nextProcess) {
    add(t, prevThread, prevProcess, nextThread, nextProcess, ThreadState.NO_STATE,
        TraceEventSink.UNKNOWN_ID);
  }

  public void add(long t, int prevThread, int prevProcess, int nextThread, int nextProcess,
      int prevStateCode, int prevStackId) {
    ensureRoom();
    prevState[count] = prevStateCode;
    prevStack[count] = prevStackId;
    time[count] = t;
    prevTid[count] = prevThread;
    prevPid[count] = prevProcess;
    nextTid[count] = nextThread;
    nextPid[count] = nextProcess;
    count++;
  }

  @Override
  Layout<Switches> layout() {
    return LAYOUT;
  }
}
