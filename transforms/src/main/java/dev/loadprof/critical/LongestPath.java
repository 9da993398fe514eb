package dev.loadprof.critical;

import java.util.ArrayList;
import java.util.List;

/**
 * The longest path of an {@link ExecutionGraph}: one pass over its nodes in topological order
 * gives each node's longest distance from the span's start (with every run edge shortened by
 * a share, for a what-if); the walk back from the last node gives the path.
 */
final class LongestPath {
  private LongestPath() {}

  /**
   * Each node's longest distance from the span's start.
   *
   * @param shrink per node, the share of its run edge (from the node before) taken away, or
   *     null for none
   */
  static long[] distances(ExecutionGraph g, double[] shrink) {
    long[] d = new long[g.count];
    for (int i : g.order) {
      long best = Long.MIN_VALUE;
      if (g.predKind[i] != ExecutionGraph.FIRST) {
        long w = weight(g, i, shrink);
        best = d[i - 1] + w;
      }
      int c = g.cross[i];
      if (c >= 0) {
        best = Math.max(best, d[c] + g.crossNs[i]);
      } else if (c == ExecutionGraph.ORIGIN || g.predKind[i] == ExecutionGraph.FIRST) {
        best = Math.max(best, c == ExecutionGraph.ORIGIN ? g.crossNs[i]
            : g.time[i] - g.spanStartNs);
      }
      d[i] = best;
    }
    return d;
  }

  /** The weight of the edge from node i - 1 to node i (same thread). */
  static long weight(ExecutionGraph g, int i, double[] shrink) {
    long dt = g.time[i] - g.time[i - 1];
    return switch (g.predKind[i]) {
      case ExecutionGraph.RUN -> shrink == null || shrink[i] == 0 ? dt
          : Math.round(dt * (1 - shrink[i]));
      case ExecutionGraph.ZERO -> 0;
      default -> dt;
    };
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
      long viaPred = hasPred ? d[i - 1] + weight(g, i, null) : Long.MIN_VALUE;
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
