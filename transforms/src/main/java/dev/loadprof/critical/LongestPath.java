package dev.loadprof.critical;

import java.util.ArrayList;
import java.util.List;

/**
 * The longest path of an {@link ExecutionGraph}: one pass over its nodes in topological order
 * gives each node's longest distance from the span's start; the walk back from the last node
 * gives the path. A what-if's pass shortens every run edge by a share.
 */
final class LongestPath {
  private LongestPath() {}

  /** Each node's longest distance from the span's start. */
  static long[] distances(ExecutionGraph g) {
    long[] d = new long[g.count];
    for (int i : g.order) {
      long best = Long.MIN_VALUE;
      if (g.predKind[i] != ExecutionGraph.FIRST) {
        best = d[i - 1] + weight(g, i);
      }
      d[i] = Math.max(best, fromCross(g, i, d));
    }
    return d;
  }

  /**
   * The longest path's length with every run edge shortened by share[i] * percent / 100 of its
   * time, for each of the percents: one pass over the graph for all of them (each a what-if).
   */
  static long[] spans(ExecutionGraph g, double[] share, int[] percents) {
    int k = percents.length;
    // Node i's distance for percents[q] at d[i * k + q]: one node's values side by side.
    long[] d = new long[g.count * k];
    long[] shrunk = new long[k];
    for (int i : g.order) {
      boolean hasPred = g.predKind[i] != ExecutionGraph.FIRST;
      if (hasPred) {
        long dt = g.time[i] - g.time[i - 1];
        boolean run = g.predKind[i] == ExecutionGraph.RUN && share[i] != 0;
        for (int q = 0; q < k; q++) {
          shrunk[q] = run ? Math.round(dt * (1 - share[i] * percents[q] / 100.0))
              : weight(g, i);
        }
      }
      int c = g.cross[i];
      for (int q = 0; q < k; q++) {
        long best = hasPred ? d[(i - 1) * k + q] + shrunk[q] : Long.MIN_VALUE;
        long viaCross = c >= 0 ? d[c * k + q] + g.crossNs[i] : crossFromOrigin(g, i);
        d[i * k + q] = Math.max(best, viaCross);
      }
    }
    long[] out = new long[k];
    for (int q = 0; q < k; q++) {
      long best = Long.MIN_VALUE;
      for (int i = 0; i < g.count; i++) {
        best = Math.max(best, d[i * k + q]);
      }
      out[q] = best;
    }
    return out;
  }

  /** What the cross edge into node i gives, with distances d. */
  private static long fromCross(ExecutionGraph g, int i, long[] d) {
    int c = g.cross[i];
    return c >= 0 ? d[c] + g.crossNs[i] : crossFromOrigin(g, i);
  }

  /** A start from the span's start (or Long.MIN_VALUE for none). */
  private static long crossFromOrigin(ExecutionGraph g, int i) {
    int c = g.cross[i];
    if (c == ExecutionGraph.ORIGIN) {
      return g.crossNs[i];
    }
    if (c < 0 && g.predKind[i] == ExecutionGraph.FIRST) {
      return g.time[i] - g.spanStartNs;
    }
    return Long.MIN_VALUE;
  }

  /** The weight of the edge from node i - 1 to node i (same thread), as recorded. */
  static long weight(ExecutionGraph g, int i) {
    return g.predKind[i] == ExecutionGraph.ZERO ? 0 : g.time[i] - g.time[i - 1];
  }

  /** The node the longest path ends at: the farthest, the latest of equals. */
  static int end(ExecutionGraph g, long[] d) {
    int best = -1;
    for (int i = 0; i < g.count; i++) {
      if (best < 0 || d[i] > d[best] || d[i] == d[best] && g.time[i] >= g.time[best]) {
        best = i;
      }
    }
    return best;
  }

  /**
   * The path's steps back from node end, in time order: each step is {node, how} with how 0 for
   * the edge from the node before on its thread, 1 for a cross edge (its source is the step
   * before), 2 for a start from the span's start.
   */
  static List<int[]> walk(ExecutionGraph g, long[] d, int end) {
    List<int[]> back = new ArrayList<>();
    int i = end;
    while (i >= 0) {
      int c = g.cross[i];
      boolean hasPred = g.predKind[i] != ExecutionGraph.FIRST;
      long viaPred = hasPred ? d[i - 1] + weight(g, i) : Long.MIN_VALUE;
      long viaCross = c >= 0 ? d[c] + g.crossNs[i] : Long.MIN_VALUE;
      // A wait a thread of the process ended follows the waker; a run stays on its thread.
      boolean takeCross = c >= 0 && viaCross == d[i]
          && (g.predKind[i] == ExecutionGraph.ZERO || viaPred != d[i]);
      if (takeCross) {
        back.add(new int[] {i, 1});
        i = c;
      } else if (hasPred) {
        back.add(new int[] {i, 0});
        i = i - 1;
      } else {
        back.add(new int[] {i, 2});
        i = -1;
      }
    }
    java.util.Collections.reverse(back);
    return back;
  }
}
