package dev.loadprof.wall;

import java.util.Arrays;

/**
 * One pass over a process's runs and waits in time order. At every instant it knows how many of
 * the process's threads run (the load) and how many wait, and it keeps two running integrals at
 * each boundary: H(t), the instants the filter keeps, and G(t), the kept load-0 instants of the
 * span each divided by the number of threads then waiting (a wait's share of them is G(end) -
 * G(start)). It also sums the span's kept instants into on-CPU real time and load 0, and the
 * part of them lost to waiting for a CPU: at an instant with k threads running and r runnable,
 * the instant's work would have taken k/(k+r) of it had every runnable thread run (the rest is
 * CPU wait), and k/(k+m) had the m = min(r, N-k) threads that the N CPUs left free run (the rest
 * is the wait for CPUs held by other processes: interference).
 */
final class Sweep {
  private final long[] at;
  private final double[] h;
  private final double[] g;
  /** Per piece, the index of its start and of its end in {@link #at}. */
  private final int[] startAt;
  private final int[] endAt;

  /**
   * @param cpus the machine's CPUs, 0 when not known (a per-process recording): then the
   *     interference part is not computed
   */
  Sweep(ThreadStates.Pieces p, long spanStart, long spanEnd, WaitFilter f,
      ThreadStateSummary s, int cpus) {
    int ranges = f.timeRanges() == null ? 0 : f.timeRanges().length;
    long[] edges = new long[2 * p.count + 2 + ranges];
    int n = 0;
    for (int i = 0; i < p.count; i++) {
      edges[n++] = p.start[i];
      edges[n++] = p.end[i];
    }
    edges[n++] = spanStart;
    edges[n++] = spanEnd;
    for (int i = 0; i < ranges; i++) {
      edges[n++] = f.timeRanges()[i];
    }
    Arrays.sort(edges, 0, n);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (distinct == 0 || edges[distinct - 1] != edges[i]) {
        edges[distinct++] = edges[i];
      }
    }
    at = Arrays.copyOf(edges, distinct);
    h = new double[distinct];
    g = new double[distinct];
    // Changes of the running and waiting counts at each boundary.
    int[] runDelta = new int[distinct];
    int[] waitDelta = new int[distinct];
    int[] runnableDelta = new int[distinct];
    startAt = new int[p.count];
    endAt = new int[p.count];
    int hint = 0;
    for (int i = 0; i < p.count; i++) {
      int[] delta = p.state[i] == ThreadStateSummary.RUNNING_ORDINAL ? runDelta : waitDelta;
      // A thread's pieces come in time order, each mostly starting where the one before ended.
      int a = floor(p.start[i], hint);
      int b = floor(p.end[i], a);
      hint = b;
      startAt[i] = a;
      endAt[i] = b;
      delta[a]++;
      delta[b]--;
      if (p.state[i] == ThreadStateSummary.RUNNABLE_ORDINAL) {
        runnableDelta[a]++;
        runnableDelta[b]--;
      }
    }
    s.cpuWaitOthersNs = cpus > 0 ? 0 : Double.NaN;
    s.cpuWaitOthersOnCpuNs = s.cpuWaitOthersNs;
    int running = 0;
    int waiting = 0;
    int runnable = 0;
    for (int k = 0; k + 1 < distinct; k++) {
      running += runDelta[k];
      waiting += waitDelta[k];
      runnable += runnableDelta[k];
      long x = at[k];
      long len = at[k + 1] - x;
      boolean kept = inRanges(f.timeRanges(), x) && f.keepsLoad(running);
      boolean inSpan = x >= spanStart && x < spanEnd;
      h[k + 1] = h[k] + (kept ? len : 0);
      double share = 0;
      if (kept && inSpan) {
        if (runnable > 0) {
          cpuWait(s, len, running, runnable, cpus);
        }
        s.spanNs += len;
        if (running > 0) {
          s.onCpuRealNs += len;
        } else {
          s.load0Ns += len;
          if (waiting > 0) {
            share = (double) len / waiting;
          } else {
            s.load0UnattributedNs += len;
          }
        }
      }
      g[k + 1] = g[k] + share;
    }
  }

  private static void cpuWait(ThreadStateSummary s, long len, int running, int runnable,
      int cpus) {
    double wait = (double) len * runnable / (running + runnable);
    s.cpuWaitNs += wait;
    if (running > 0) {
      s.cpuWaitOnCpuNs += wait;
    }
    if (cpus > 0) {
      int m = Math.min(runnable, Math.max(0, cpus - running));
      double others = m == 0 ? 0 : (double) len * m / (running + m);
      s.cpuWaitOthersNs += others;
      if (running > 0) {
        s.cpuWaitOthersOnCpuNs += others;
      }
    }
  }

  /** H(end) - H(start) of piece i: its kept instants. */
  double keptOf(int i) {
    return h[endAt[i]] - h[startAt[i]];
  }

  /** G(end) - G(start) of piece i: its share of the load-0 instants. */
  double shareOf(int i) {
    return g[endAt[i]] - g[startAt[i]];
  }

  /** H at any instant: between two boundaries it grows with time where the filter keeps it. */
  double hAt(long t) {
    return hAt(t, 0);
  }

  /** H(to) - H(from) for instants within piece i (its start and end are boundaries). */
  double keptWithin(int i, long from, long to) {
    double a = from == at[startAt[i]] ? h[startAt[i]] : hAt(from, startAt[i]);
    double b = to == at[endAt[i]] ? h[endAt[i]] : hAt(to, startAt[i]);
    return b - a;
  }

  private double hAt(long t, int hint) {
    int k = floor(t, hint);
    if (k >= 0 && at[k] == t) {
      return h[k];
    }
    int next = k + 1;
    if (next == 0 || next == at.length) {
      return next == 0 ? 0 : h[at.length - 1];
    }
    double kept = (h[next] - h[next - 1]) / (at[next] - at[next - 1]);
    return h[next - 1] + kept * (t - at[next - 1]);
  }

  /**
   * The last boundary at or before t (-1: none), searched outwards from the boundary hint in
   * steps that double, then by halves: a few steps when t is near the hint.
   */
  int floor(long t, int hint) {
    int n = at.length;
    if (n == 0) {
      return -1;
    }
    int lo;
    int hi;
    int k = Math.max(0, Math.min(n - 1, hint));
    if (at[k] <= t) {
      lo = k; // at[lo] <= t < at[hi], at[n] standing for +infinity
      hi = k + 1;
      for (int step = 1; hi < n && at[hi] <= t; step <<= 1) {
        lo = hi;
        hi = lo + step;
      }
      hi = Math.min(hi, n);
    } else {
      hi = k; // at[lo] <= t < at[hi], at[-1] standing for -infinity
      lo = k - 1;
      for (int step = 1; lo >= 0 && at[lo] > t; step <<= 1) {
        hi = lo;
        lo = hi - step;
      }
      lo = Math.max(lo, -1);
    }
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (at[mid] <= t) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Ranges are [start, end) pairs; none means all. */
  private static boolean inRanges(long[] ranges, long t) {
    if (ranges == null) {
      return true;
    }
    for (int i = 0; i + 1 < ranges.length; i += 2) {
      if (t >= ranges[i] && t < ranges[i + 1]) {
        return true;
      }
    }
    return false;
  }
}
