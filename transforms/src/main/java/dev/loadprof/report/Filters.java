package dev.loadprof.report;

import java.io.Serializable;

/**
 * Which processes and loads go into the outputs, and how the many-runs reports group them.
 *
 * @param pid only this process, or null for all
 * @param commRegex only processes whose name matches, or null for all
 * @param loadRange a LoadRange spec for the profile, functions and folded outputs; null = all
 * @param groupBy a GroupBy spec (none, host, comm, run, run:REGEX); null = none
 */
public record Filters(Integer pid, String commRegex, String loadRange, String groupBy)
    implements Serializable {
  /** Without grouping: the form used before --group-by existed. */
  public Filters(Integer pid, String commRegex, String loadRange) {
    this(pid, commRegex, loadRange, null);
  }

  public static Filters none() {
    return new Filters(null, null, null);
  }
}
