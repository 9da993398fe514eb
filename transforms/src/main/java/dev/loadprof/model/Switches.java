package dev.loadprof.model;

import java.util.List;

/** A block's sched_switch records on its CPU, sorted by time; pids as far as they are known. */
public final class Switches extends ColumnGroup<Switches> {
  private static final Layout<Switches> LAYOUT = new Layout<>("switch_count", Switches::new, List.of(
      Column.times("switch_time", s -> s.time, (s, v) -> s.time = v),
      Column.ints("switch_prev_tid", s -> s.prevTid, (s, v) -> s.prevTid = v),
      Column.ints("switch_prev_pid", s -> s.prevPid, (s, v) -> s.prevPid = v),
      Column.ints("switch_next_tid", s -> s.nextTid, (s, v) -> s.nextTid = v),
      Column.ints("switch_next_pid", s -> s.nextPid, (s, v) -> s.nextPid = v)));

  public long[] time = new long[0];
  public int[] prevTid = new int[0];
  public int[] prevPid = new int[0];
  public int[] nextTid = new int[0];
  public int[] nextPid = new int[0];

  public void add(long t, int prevThread, int prevProcess, int nextThread, int nextProcess) {
    ensureRoom();
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
