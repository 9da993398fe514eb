package dev.loadprof.critical;

import dev.loadprof.wall.ThreadMarks;
import java.util.Arrays;

/** The wake-up marks of a process's threads, by thread and time, to find the one at an instant. */
final class WakeIndex {
  private final ThreadMarks m;
  /** Wake marks sorted by (tid, time). */
  private final int[] wakes;
  private final long[] keyTid;
  private final long[] keyTime;

  WakeIndex(ThreadMarks marks) {
    this.m = marks;
    int n = 0;
    for (int i = 0; i < marks.count; i++) {
      if (marks.kind[i] == ThreadMarks.WAKE) {
        n++;
      }
    }
    long[] packed = new long[n];
    int[] idx = new int[n];
    int k = 0;
    for (int i = 0; i < marks.count; i++) {
      if (marks.kind[i] == ThreadMarks.WAKE) {
        idx[k++] = i;
      }
    }
    // Sort indices by (tid, time) through boxed comparison only once per process.
    Integer[] boxed = new Integer[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = idx[i];
    }
    // Ties (one thread woken twice at one instant) by waker: the same whatever order the
    // windows' marks were merged in.
    Arrays.sort(boxed, (a, b) -> marks.tid[a] != marks.tid[b]
        ? Integer.compare(marks.tid[a], marks.tid[b])
        : marks.time[a] != marks.time[b] ? Long.compare(marks.time[a], marks.time[b])
        : marks.wakerPid(a) != marks.wakerPid(b)
            ? Integer.compare(marks.wakerPid(a), marks.wakerPid(b))
            : Integer.compare(marks.wakerTid(a), marks.wakerTid(b)));
    wakes = new int[n];
    keyTid = new long[n];
    keyTime = packed;
    for (int i = 0; i < n; i++) {
      wakes[i] = boxed[i];
      keyTid[i] = marks.tid[wakes[i]];
      keyTime[i] = marks.time[wakes[i]];
    }
  }

  /** The wake mark of thread tid at instant t, or -1. */
  int at(int tid, long t) {
    int lo = 0;
    int hi = wakes.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (keyTid[mid] < tid || (keyTid[mid] == tid && keyTime[mid] < t)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < wakes.length && keyTid[lo] == tid && keyTime[lo] == t ? wakes[lo] : -1;
  }

  ThreadMarks marks() {
    return m;
  }
}
