package dev.loadprof.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of comparing baseline runs with candidate runs: every figure compared, the
 * changes among them (regressions first, largest real-time change first), the verdict, the
 * runs used and those left out, and notes on what the run counts cannot conclude.
 */
public record Comparison(
    CompareSettings settings,
    List<String> baselineRuns,
    List<String> candidateRuns,
    List<ExcludedRun> excluded,
    List<MetricComparison> rows,
    List<String> notes) {

  public Comparison {
    baselineRuns = List.copyOf(baselineRuns);
    candidateRuns = List.copyOf(candidateRuns);
    excluded = List.copyOf(excluded);
    rows = List.copyOf(rows);
    notes = List.copyOf(notes);
  }

  /** The reported changes: regressions first, then by size of the absolute change. */
  public List<MetricComparison> changes() {
    List<MetricComparison> out = new ArrayList<>();
    for (MetricComparison r : rows) {
      if (r.change()) {
        out.add(r);
      }
    }
    out.sort(CompareOrder.CHANGES);
    return out;
  }

  public Verdict verdict() {
    return Verdict.of(rows);
  }

  /** 3 for a significant real-time regression, 4 missing, 5 interference if asked, else 0. */
  public int exitCode() {
    return verdict().exitCode(settings.failOnInterference());
  }

  /** The row of one key, or null. */
  public MetricComparison row(SeriesKey key) {
    for (MetricComparison r : rows) {
      if (r.key().equals(key)) {
        return r;
      }
    }
    return null;
  }
}
