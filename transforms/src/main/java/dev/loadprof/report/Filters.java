package dev.loadprof.report;

import java.io.Serializable;
import java.util.Set;

/**
 * Which processes and loads go into the outputs, and how the many-runs reports group them.
 *
 * @param pids the processes to keep; null or empty = all
 * @param commRegex only processes whose name matches, or null for all
 * @param loadRange a LoadRange spec for the profile, functions and folded outputs; null = all
 * @param groupBy a GroupBy spec (none, host, comm, run, run:REGEX); null = none
 */
public record Filters(Set<Integer> pids, String commRegex, String loadRange, String groupBy)
    implements Serializable {
  public Filters {
    pids = pids == null || pids.isEmpty() ? null : Set.copyOf(pids);
  }

  /** Without grouping: the form used before --group-by existed. */
  public Filters(Set<Integer> pids, String commRegex, String loadRange) {
    this(pids, commRegex, loadRange, null);
  }

  public static Filters none() {
    return new Filters(null, null, null);
  }
}
