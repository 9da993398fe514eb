package dev.loadprof.wall;

/**
 * The marks of a {@link ThreadMarks} in replay order: by thread, then time, then kind (a run or
 * switch-out before a wakeup at the same instant), equal marks in the order they were added. A
 * stable merge sort of plain int indices: no boxing, whatever the number of marks.
 */
final class MarkOrder {
  private MarkOrder() {}

  static int[] of(ThreadMarks m) {
    int n = m.count;
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    if (n > 1) {
      sort(m, a, new int[n], 0, n);
    }
    return a;
  }

  private static int compare(ThreadMarks m, int x, int y) {
    if (m.tid[x] != m.tid[y]) {
      return Integer.compare(m.tid[x], m.tid[y]);
    }
    if (m.time[x] != m.time[y]) {
      return Long.compare(m.time[x], m.time[y]);
    }
    return Integer.compare(m.kind[x], m.kind[y]);
  }

  /** Sorts a[from, to) stably, using scratch over the same range. */
  private static void sort(ThreadMarks m, int[] a, int[] scratch, int from, int to) {
    if (to - from <= 16) {
      for (int i = from + 1; i < to; i++) {
        int v = a[i];
        int j = i - 1;
        while (j >= from && compare(m, a[j], v) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = v;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    sort(m, a, scratch, from, mid);
    sort(m, a, scratch, mid, to);
    if (compare(m, a[mid - 1], a[mid]) <= 0) {
      return; // already in order (marks mostly arrive so)
    }
    System.arraycopy(a, from, scratch, from, to - from);
    int i = from;
    int j = mid;
    for (int k = from; k < to; k++) {
      if (j >= to || (i < mid && compare(m, scratch[i], scratch[j]) <= 0)) {
        a[k] = scratch[i++];
      } else {
        a[k] = scratch[j++];
      }
    }
  }
}
