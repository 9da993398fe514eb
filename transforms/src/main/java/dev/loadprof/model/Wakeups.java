package dev.loadprof.model;

import java.util.List;

/** A block's sched_wakeup records whose target is its CPU, sorted by time. */
public final class Wakeups extends ColumnGroup<Wakeups> {
  private static final Layout<Wakeups> LAYOUT = new Layout<>("wakeup_count", Wakeups::new, List.of(
      Column.times("wakeup_time", w -> w.time, (w, v) -> w.time = v),
      Column.ints("wakeup_tid", w -> w.tid, (w, v) -> w.tid = v),
      Column.intsOrUnknown("wakeup_waker_tid", w -> w.wakerTid, (w, v) -> w.wakerTid = v),
      Column.intsOrUnknown("wakeup_waker_pid", w -> w.wakerPid, (w, v) -> w.wakerPid = v)));

  public long[] time = new long[0];
  public int[] tid = new int[0];
  /** The thread that woke it (the record header's), UNKNOWN_ID when not known. */
  public int[] wakerTid = new int[0];
  public int[] wakerPid = new int[0];

  public void add(long t, int threadId) {
    add(t, threadId, TraceEventSink.UNKNOWN_ID, TraceEventSink.UNKNOWN_ID);
  }

  public void add(long t, int threadId, int wakerThread, int wakerProcess) {
    ensureRoom();
    wakerTid[count] = wakerThread;
    wakerPid[count] = wakerProcess;
    time[count] = t;
    tid[count] = threadId;
    count++;
  }

  @Override
  Layout<Wakeups> layout() {
    return LAYOUT;
  }
}
