package dev.loadprof.model;

import java.util.List;

/**
 * Run intervals of one CPU in one window: who ran when (half-open, sorted). Derived by interval
 * building, so they cross the Beam shuffle but are never archived.
 */
public final class Intervals extends ColumnGroup<Intervals> {
  private static final Layout<Intervals> LAYOUT = new Layout<>("interval_count", Intervals::new, List.of(
      Column.times("interval_start", i -> i.start, (i, v) -> i.start = v),
      Column.times("interval_end", i -> i.end, (i, v) -> i.end = v),
      Column.ints("interval_tid", i -> i.tid, (i, v) -> i.tid = v),
      Column.ints("interval_pid", i -> i.pid, (i, v) -> i.pid = v)));

  public long[] start = new long[0];
  public long[] end = new long[0];
  public int[] tid = new int[0];
  public int[] pid = new int[0];

  public void add(long s, long e, int t, int p) {
    if (e <= s) {
      return;
    }
    // Merge with the previous interval when the same thread simply continues.
    if (count > 0 && tid[count - 1] == t && pid[count - 1] == p && end[count - 1] == s) {
      end[count - 1] = e;
      return;
    }
    ensureRoom();
    start[count] = s;
    end[count] = e;
    tid[count] = t;
    pid[count] = p;
    count++;
  }

  @Override
  Layout<Intervals> layout() {
    return LAYOUT;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < count; i++) {
      b.append(i == 0 ? "" : ", ").append(pid[i]).append('/').append(tid[i]).append('@')
          .append(start[i]).append("..").append(end[i]);
    }
    return b.append(']').toString();
  }
}
