package dev.loadprof.perfdata.reader;

import java.util.HashMap;
import java.util.Map;

/**
 * The name perf script prints for each thread, kept as perf's thread table keeps it: set by COMM
 * records, copied from the parent at FORK, ":TID" for a thread perf never heard of, "swapper" for
 * the idle task.
 */
final class ThreadComms {
  private final Map<Integer, String> byTid = new HashMap<>();

  ThreadComms() {
    byTid.put(0, "swapper");
  }

  String of(int tid) {
    String comm = byTid.get(tid);
    return comm != null ? comm : ":" + tid;
  }

  /**
   * The name as the text path reads it from perf script's record header: without leading or
   * trailing blanks (perf pads the column, so the text cannot keep them).
   */
  String inHeader(int tid) {
    return of(tid).strip();
  }

  void comm(int tid, String comm) {
    byTid.put(tid, comm);
  }

  /** A new thread: it has its parent's name if the parent has one, else none yet. */
  void fork(int parentTid, int childTid) {
    String parent = byTid.get(parentTid);
    if (parent != null) {
      byTid.put(childTid, parent);
    } else {
      byTid.remove(childTid);
    }
  }
}
