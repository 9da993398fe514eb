package dev.loadprof.critical;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.ThreadState;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.wall.ThreadMarks;
import dev.loadprof.wall.ThreadStates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A process's execution graph over its span. Nodes are instants of its threads (the starts and
 * ends of their replayed pieces, and the instants inside a run at which the thread woke or
 * created another); a node's edge from the node before it on its thread weighs what the thread
 * did in between: a run (shrinkable by a what-if), a runnable wait (fixed), a blocked wait
 * (fixed when a timer, an interrupt, I/O or another process ended it; 0 when a thread of the
 * process woke it, which then comes with a cross edge of 0 from the waker at the wake-up). A
 * thread's first node comes from its creator at the fork instant (the gap fixed), else from the
 * span's start. Every edge weighs at most the time between its nodes and each node has one that
 * weighs exactly that, so the longest path to a node is its instant and the longest path of the
 * graph is the span. Nodes in {@link #order} (by time, a wake-up's source before its target)
 * are a topological order: the longest path and each what-if is one pass.
 */
final class ExecutionGraph {
  static final byte FIRST = 0;
  static final byte RUN = 1;
  static final byte FIXED = 2;
  static final byte ZERO = 3;
  /** {@link #cross} of a node whose cross edge comes from the span's start. */
  static final int ORIGIN = -2;
  static final int NONE = -1;

  final ThreadStates.Replayed replayed;
  final ThreadMarks marks;
  final long spanStartNs;
  final long spanEndNs;
  /** Threads by index, in tid order; their nodes are [threadFirst[k], threadFirst[k + 1]). */
  final int[] threadTid;
  final int[] threadFirst;

  int count;
  long[] time;
  int[] thread;
  /** The kind of the edge from the node before on the same thread. */
  byte[] predKind;
  /** The piece that edge lies in (for a run, its first), or -1. */
  int[] piece;
  /** For a run edge: the first node of its run (a run split by wake-ups is several edges). */
  int[] runStart;
  /** The cross edge's source node, {@link #ORIGIN} or {@link #NONE}, and its weight. */
  int[] cross;
  long[] crossNs;
  /** For a FIXED blocked edge and a start from the origin: why it waited. */
  String[] reason;
  /** Topological order. */
  int[] order;
  /** What may be off, one line each. */
  final List<String> notes = new ArrayList<>();

  private ExecutionGraph(ThreadStates.Replayed replayed, long spanStartNs, long spanEndNs,
      int[] threadTid, int[] threadFirst) {
    this.replayed = replayed;
    this.marks = replayed.marks();
    this.spanStartNs = spanStartNs;
    this.spanEndNs = spanEndNs;
    this.threadTid = threadTid;
    this.threadFirst = threadFirst;
  }

  /** Where the process came from: its key, names of processes, and its threads' forks. */
  record Context(int pid, java.util.function.IntFunction<String> processName,
      Map<Integer, long[]> threadForks, boolean hasWakers) {}

  static ExecutionGraph build(ThreadStates.Replayed r, long spanStartNs, long spanEndNs,
      Context cx) {
    // Each thread's pieces: contiguous in the replay.
    List<int[]> ranges = new ArrayList<>();
    int n = r.pieceCount();
    for (int i = 0; i < n; ) {
      int j = i;
      while (j < n && r.pieceTid(j) == r.pieceTid(i)) {
        j++;
      }
      ranges.add(new int[] {i, j});
      i = j;
    }
    int[] tids = new int[ranges.size()];
    for (int k = 0; k < tids.length; k++) {
      tids[k] = r.pieceTid(ranges.get(k)[0]);
    }
    WakeIndex wakes = new WakeIndex(r.marks());
    // Splits: instants inside runs at which a thread woke or created another.
    Map<Integer, Integer> threadOf = new HashMap<>();
    for (int k = 0; k < tids.length; k++) {
      threadOf.put(tids[k], k);
    }
    List<long[]> splits = new ArrayList<>(); // {thread, time}
    Resolution res = new Resolution(r, ranges, threadOf, spanStartNs, spanEndNs, cx, wakes);
    res.resolve(splits);
    // Node times per thread.
    long[][] times = new long[tids.length][];
    long[][] splitTimes = groupSplits(splits, tids.length);
    int total = 0;
    for (int k = 0; k < tids.length; k++) {
      int[] range = ranges.get(k);
      long[] t = new long[2 * (range[1] - range[0]) + splitTimes[k].length];
      int m = 0;
      for (int p = range[0]; p < range[1]; p++) {
        long a = clip(r.pieceStartNs(p), spanStartNs, spanEndNs);
        long b = clip(r.pieceEndNs(p), spanStartNs, spanEndNs);
        // A run goes on over the next piece when that is a run from its end (the runs of the
        // marks end at the windows' edges): one edge, whatever the --window.
        boolean goesOn = p > range[0] && r.pieceState(p) == ThreadState.RUNNING
            && r.pieceState(p - 1) == ThreadState.RUNNING
            && r.pieceEndNs(p - 1) == r.pieceStartNs(p) && m > 0 && t[m - 1] == a;
        if (b > a) {
          if (goesOn) {
            t[m - 1] = b;
          } else {
            t[m++] = a;
            t[m++] = b;
          }
        }
      }
      for (long s : splitTimes[k]) {
        t[m++] = s;
      }
      Arrays.sort(t, 0, m);
      int u = 0;
      for (int q = 0; q < m; q++) {
        if (u == 0 || t[q] != t[u - 1]) {
          t[u++] = t[q];
        }
      }
      times[k] = Arrays.copyOf(t, u);
      total += u;
    }
    int[] first = new int[tids.length + 1];
    ExecutionGraph g = new ExecutionGraph(r, spanStartNs, spanEndNs, tids, first);
    g.allocate(total);
    for (int k = 0; k < tids.length; k++) {
      first[k] = g.count;
      g.addThread(k, times[k], ranges.get(k), res);
    }
    first[tids.length] = g.count;
    res.link(g);
    g.notes.addAll(res.notes());
    g.order = g.topologicalOrder();
    return g;
  }

  private static long clip(long t, long lo, long hi) {
    return Math.max(lo, Math.min(hi, t));
  }

  private static long[][] groupSplits(List<long[]> splits, int threads) {
    int[] counts = new int[threads];
    for (long[] s : splits) {
      counts[(int) s[0]]++;
    }
    long[][] out = new long[threads][];
    for (int k = 0; k < threads; k++) {
      out[k] = new long[counts[k]];
      counts[k] = 0;
    }
    for (long[] s : splits) {
      int k = (int) s[0];
      out[k][counts[k]++] = s[1];
    }
    return out;
  }

  private void allocate(int n) {
    time = new long[n];
    thread = new int[n];
    predKind = new byte[n];
    piece = new int[n];
    runStart = new int[n];
    cross = new int[n];
    crossNs = new long[n];
    reason = new String[n];
    Arrays.fill(cross, NONE);
  }

  private void addThread(int k, long[] t, int[] range, Resolution res) {
    int p = range[0];
    for (int q = 0; q < t.length; q++) {
      int node = count++;
      time[node] = t[q];
      thread[node] = k;
      if (q == 0) {
        predKind[node] = FIRST;
        piece[node] = -1;
        continue;
      }
      // The piece covering [t[q-1], t[q]).
      while (p < range[1] && replayed.pieceEndNs(p) <= t[q - 1]) {
        p++;
      }
      if (p >= range[1] || replayed.pieceStartNs(p) > t[q - 1]) {
        predKind[node] = FIXED; // a gap between pieces: nothing known
        piece[node] = -1;
        reason[node] = "unknown";
        continue;
      }
      piece[node] = p;
      ThreadState st = replayed.pieceState(p);
      if (st == ThreadState.RUNNING) {
        predKind[node] = RUN;
        runStart[node] = predKind[node - 1] == RUN ? runStart[node - 1] : node - 1;
      } else if (st == ThreadState.RUNNABLE) {
        predKind[node] = FIXED;
      } else {
        boolean wakeEnd = t[q] == Math.min(replayed.pieceEndNs(p), spanEndNs);
        String why = wakeEnd ? res.reasonOf(p) : null;
        predKind[node] = why == null && wakeEnd ? ZERO : FIXED;
        reason[node] = why == null ? "unknown" : why;
      }
    }
  }

  /** The node of thread k at instant t, or NONE. */
  int nodeAt(int k, long t) {
    int i = Arrays.binarySearch(time, threadFirst[k], threadFirst[k + 1], t);
    return i >= 0 ? i : NONE;
  }

  /** The last node of thread k at or before t, or NONE. */
  int nodeAtOrBefore(int k, long t) {
    int i = Arrays.binarySearch(time, threadFirst[k], threadFirst[k + 1], t);
    if (i >= 0) {
      return i;
    }
    int ins = -i - 1;
    return ins > threadFirst[k] ? ins - 1 : NONE;
  }

  /**
   * Nodes by time; at the same instant a node before the nodes its cross edges reach (a chain
   * of wake-ups at one instant is as long as the threads, at most).
   */
  private int[] topologicalOrder() {
    int[] depth = new int[count];
    for (int i = 0; i < count; i++) {
      int d = 0;
      int c = cross[i];
      while (c >= 0 && time[c] == time[i] && d <= threadTid.length) {
        d++;
        c = cross[c];
      }
      depth[i] = d;
    }
    // A merge of the threads' nodes: a heap of threads by their next node (time, then depth,
    // then thread), in primitive arrays (a node each step).
    int[] cursor = Arrays.copyOf(threadFirst, threadTid.length);
    int[] heap = new int[threadTid.length];
    int size = 0;
    for (int k = 0; k < threadTid.length; k++) {
      if (cursor[k] < threadFirst[k + 1]) {
        heap[size++] = k;
      }
    }
    for (int h = size / 2 - 1; h >= 0; h--) {
      siftDown(heap, size, h, cursor, depth);
    }
    int[] out = new int[count];
    int o = 0;
    while (size > 0) {
      int k = heap[0];
      out[o++] = cursor[k]++;
      if (cursor[k] >= threadFirst[k + 1]) {
        heap[0] = heap[--size];
      }
      siftDown(heap, size, 0, cursor, depth);
    }
    return out;
  }

  private void siftDown(int[] heap, int size, int h, int[] cursor, int[] depth) {
    int k = heap[h];
    while (true) {
      int c = 2 * h + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && before(heap[c + 1], heap[c], cursor, depth)) {
        c++;
      }
      if (!before(heap[c], k, cursor, depth)) {
        break;
      }
      heap[h] = heap[c];
      h = c;
    }
    heap[h] = k;
  }

  /** Whether thread a's next node comes before thread b's. */
  private boolean before(int a, int b, int[] cursor, int[] depth) {
    int x = cursor[a];
    int y = cursor[b];
    if (time[x] != time[y]) {
      return time[x] < time[y];
    }
    if (depth[x] != depth[y]) {
      return depth[x] < depth[y];
    }
    return a < b;
  }

  /** The program's stacks: whether frames name a sleep on a timer. */
  static boolean sleepsOnTimer(CallStack s) {
    if (s == null) {
      return false;
    }
    for (Frame f : s.frames()) {
      String name = f.symbol();
      if (name.contains("nanosleep") || name.equals("hrtimer_sleeper_start_expires")
          || name.equals("usleep") || name.equals("sleep")) {
        return true;
      }
    }
    return false;
  }

  static boolean known(int id) {
    return id != TraceEventSink.UNKNOWN_ID;
  }

  static int mainTid(int pidKey) {
    return ProcessKey.pid(pidKey);
  }
}
