package dev.loadprof.report;

import dev.loadprof.model.Frame;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-function figures of one process, over its load-filtered stacks. A function is
 * identified by its symbol alone, exactly as pprof -top does at its default function granularity
 * (which drops file names), so that flat % here equals pprof's flat % of the wall sample type.
 * Weights are StackWeight.wallNs(), the same rounded ns that go into the profile.
 */
public final class FunctionTable {
  /** Functions below this flat real share do not set the best observed load: too noisy. */
  public static final double BEST_LOAD_MIN_SHARE_PCT = 1.0;

  private static final Comparator<FunctionRow> RANK =
      Comparator.comparingLong(FunctionRow::flatWallNs)
          .reversed()
          .thenComparing(FunctionRow::name);

  private final List<FunctionRow> rows;
  private final long totalWallNs;
  private final long totalCpuNs;
  private final double bestLoad;

  private FunctionTable(List<FunctionRow> rows, long totalWallNs, long totalCpuNs, double best) {
    this.rows = List.copyOf(rows);
    this.totalWallNs = totalWallNs;
    this.totalCpuNs = totalCpuNs;
    this.bestLoad = best;
  }

  /** The table of one process of the analysis (made once per analysis and process). */
  public static FunctionTable of(Analysis a, ProcessLoad p) {
    return a.functionTableOf(p);
  }

  /** Builds the table from one process's stacks (already load-filtered). */
  public static FunctionTable of(List<StackWeight> stacks) {
    // name -> {flatWall, cumWall, flatCpu, the last stack counted in cumWall}. Hashed, not a
    // tree: every frame of every stack looks its name up, and the rows are ranked at the end.
    Map<String, long[]> sums = new HashMap<>();
    long totalWall = 0;
    long totalCpu = 0;
    long stackNo = 0;
    for (StackWeight s : stacks) {
      long wall = s.wallNs();
      totalWall += wall;
      totalCpu += s.cpuNs();
      Frame[] stack = s.stack();
      if (stack.length == 0) {
        continue;
      }
      stackNo++;
      long[] leaf = sums.computeIfAbsent(stack[0].symbol(), k -> new long[4]);
      leaf[0] += wall;
      leaf[2] += s.cpuNs();
      // Cumulative: once per stack, even when the function recurses.
      String lastName = null;
      long[] v = null;
      for (Frame f : stack) {
        if (f.symbol() != lastName) { // a recursion's frames share their name object
          lastName = f.symbol();
          v = sums.computeIfAbsent(lastName, k -> new long[4]);
        }
        if (v[3] != stackNo) {
          v[3] = stackNo;
          v[1] += wall;
        }
      }
    }

    double best = 0;
    for (long[] v : sums.values()) {
      if (pct(v[0], totalWall) >= BEST_LOAD_MIN_SHARE_PCT && v[0] > 0) {
        best = Math.max(best, (double) v[2] / v[0]);
      }
    }

    List<FunctionRow> rows = new ArrayList<>();
    for (var e : sums.entrySet()) {
      long[] v = e.getValue();
      double realPct = pct(v[0], totalWall);
      double avgLoad = v[0] == 0 ? 0 : (double) v[2] / v[0];
      rows.add(
          new FunctionRow(
              e.getKey(),
              v[0],
              v[1],
              v[2],
              realPct,
              pct(v[1], totalWall),
              pct(v[2], totalCpu),
              avgLoad,
              savedPct(realPct, avgLoad, best)));
    }
    rows.sort(RANK);
    return new FunctionTable(rows, totalWall, totalCpu, best);
  }

  /**
   * Real time saved, in % of the process, if a function taking realPct of it at avgLoad ran at
   * the best load instead: its real time shrinks by the factor avgLoad/best. Never negative.
   */
  public static double savedPct(double realPct, double avgLoad, double bestLoad) {
    if (bestLoad <= 0 || avgLoad >= bestLoad) {
      return 0;
    }
    return realPct * (1 - avgLoad / bestLoad);
  }

  private static double pct(long part, long total) {
    return total == 0 ? 0 : 100.0 * part / total;
  }

  /** All functions, ranked by flat real time (ties by name). */
  public List<FunctionRow> rows() {
    return rows;
  }

  public List<FunctionRow> top(int n) {
    return rows.subList(0, Math.min(n, rows.size()));
  }

  public long totalWallNs() {
    return totalWallNs;
  }

  public long totalCpuNs() {
    return totalCpuNs;
  }

  /** Highest average load among functions with at least 1% flat real share; 0 if none. */
  public double bestLoad() {
    return bestLoad;
  }
}
