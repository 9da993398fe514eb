package dev.loadprof.model;

import java.util.List;

/** A block's sched_wakeup records whose target is its CPU, sorted by time. */
public final class Wakeups extends ColumnGroup<Wakeups> {
  private static final Layout<Wakeups> LAYOUT = new Layout<>("wakeup_count", Wakeups::new, List.of(
      Column.times("wakeup_time", w -> w.time, (w, v) -> w.time = v),
      Column.ints("wakeup_tid", w -> w.tid, (w, v) -> w.tid = v)));

  public long[] time = new long[0];
  public int[] tid = new int[0];

  public void add(long t, int threadId) {
    ensureRoom();
    time[count] = t;
    tid[count] = threadId;
    count++;
  }

  @Override
  Layout<Wakeups> layout() {
    return LAYOUT;
  }
}
