package dev.loadprof.critical;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.wall.ThreadMarks;
import java.util.function.Predicate;

/**
 * The process's CPU samples placed on the run edges of its execution graph: each sample on the
 * edge (the node it ends at) whose run holds its instant on its thread. Samples outside every
 * run of their thread (a run interval that lost its switch) are counted, not placed.
 */
final class PathSamples {
  private final ExecutionGraph g;
  private final ThreadMarks m;
  /**
   * The stacks of the samples of the edge ending at node i: stackAt[first[i] .. first[i + 1]),
   * in the samples' order (kept by edge so that each what-if reads them in one sequential pass).
   */
  final int[] first;
  final int[] stackAt;
  long unplaced;

  PathSamples(ExecutionGraph g) {
    this.g = g;
    this.m = g.marks;
    // Thread index by tid, without boxing a tid per sample: the graph's threads come in tid
    // order (the replay's pieces are sorted by tid).
    int threads = g.threadTid.length;
    int[] edgeOf = new int[m.sampleCount];
    int[] counts = new int[g.count + 1];
    // Per thread, the node its last sample was placed after: a thread's samples come mostly in
    // time order, so the next is mostly there or a few nodes on (a binary search otherwise).
    int[] hint = java.util.Arrays.copyOf(g.threadFirst, threads);
    int lastTid = 0;
    int lastThread = -1;
    for (int s = 0; s < m.sampleCount; s++) {
      int tid = m.sampleTid[s];
      if (lastThread == -1 || tid != lastTid) {
        int at = java.util.Arrays.binarySearch(g.threadTid, tid);
        lastThread = at < 0 ? -2 : at;
        lastTid = tid;
      }
      edgeOf[s] = lastThread < 0 ? -1 : edgeOf(lastThread, m.sampleTime[s], hint);
      if (edgeOf[s] >= 0) {
        counts[edgeOf[s]]++;
      } else {
        unplaced++;
      }
    }
    first = new int[g.count + 1];
    for (int i = 0; i < g.count; i++) {
      first[i + 1] = first[i] + counts[i];
    }
    stackAt = new int[first[g.count]];
    int[] next = java.util.Arrays.copyOf(first, g.count);
    for (int s = 0; s < m.sampleCount; s++) {
      if (edgeOf[s] >= 0) {
        stackAt[next[edgeOf[s]]++] = m.sampleStack[s];
      }
    }
  }

  private int edgeOf(int k, long t, int[] hint) {
    int n = nodeAtOrBefore(k, t, hint);
    if (n < 0 || n + 1 >= g.threadFirst[k + 1] || g.predKind[n + 1] != ExecutionGraph.RUN) {
      return -1;
    }
    return n + 1;
  }

  /** g.nodeAtOrBefore(k, t), looked for first from the thread's hint on. */
  private int nodeAtOrBefore(int k, long t, int[] hint) {
    int h = hint[k];
    int end = g.threadFirst[k + 1];
    if (h < end && g.time[h] <= t) {
      for (int steps = 0; steps < 8; steps++) {
        if (h + 1 >= end || g.time[h + 1] > t) {
          hint[k] = h;
          return h;
        }
        h++;
      }
    }
    int n = g.nodeAtOrBefore(k, t);
    if (n >= 0) {
      hint[k] = n;
    }
    return n;
  }

  int count(int edge) {
    return first[edge + 1] - first[edge];
  }

  /**
   * Per node, the share of its run edge's samples whose stack holds a function that matches
   * (once per sample); an edge without samples takes its run's share, a run without any 0.
   */
  double[] shareOf(Predicate<String> function) {
    boolean[] holds = new boolean[m.stacks.size()];
    boolean[] known = new boolean[m.stacks.size()];
    double[] share = new double[g.count];
    // Per run (by its first node), its samples that hold the function and all of them.
    int[] pieceHit = new int[g.count];
    int[] pieceAll = new int[g.count];
    for (int i = 0; i < g.count; i++) {
      if (g.predKind[i] != ExecutionGraph.RUN || count(i) == 0) {
        continue;
      }
      int hit = 0;
      for (int j = first[i]; j < first[i + 1]; j++) {
        int st = stackAt[j];
        if (!known[st]) {
          known[st] = true;
          holds[st] = matches(m.stacks.get(st), function);
        }
        hit += holds[st] ? 1 : 0;
      }
      share[i] = (double) hit / count(i);
      pieceHit[g.runStart[i]] += hit;
      pieceAll[g.runStart[i]] += count(i);
    }
    for (int i = 0; i < g.count; i++) {
      if (g.predKind[i] == ExecutionGraph.RUN && count(i) == 0) {
        int p = g.runStart[i];
        share[i] = pieceAll[p] == 0 ? 0 : (double) pieceHit[p] / pieceAll[p];
      }
    }
    return share;
  }

  static boolean matches(CallStack s, Predicate<String> function) {
    for (Frame f : s.frames()) {
      if (function.test(f.symbol())) {
        return true;
      }
    }
    return false;
  }
}
