package dev.loadprof.report;

import dev.loadprof.critical.WhatIfRequest;
import dev.loadprof.load.SampleSelection;
import java.io.Serializable;
import java.util.List;
import java.util.Set;

/**
 * Which processes and loads go into the outputs, and how the many-runs reports group them.
 *
 * @param pids the processes to keep; null or empty = all
 * @param commRegex only processes whose name matches, or null for all
 * @param loadRange a LoadRange spec for the profile, functions and folded outputs; null = all
 * @param groupBy a GroupBy spec (none, host, comm, run, run:REGEX); null = none
 * @param samples the --tid, --cpu and --time selection, applied where samples get their load
 *     (this record only reports it); null = all
 * @param whatIfs the --what-if speed-ups to predict on the critical path; null = none
 */
public record Filters(Set<Integer> pids, String commRegex, String loadRange, String groupBy,
    SampleSelection samples, List<WhatIfRequest> whatIfs) implements Serializable {
  public Filters {
    pids = pids == null || pids.isEmpty() ? null : Set.copyOf(pids);
    samples = samples == null ? SampleSelection.ALL : samples;
    whatIfs = whatIfs == null ? List.of() : List.copyOf(whatIfs);
  }

  /** Without what-ifs. */
  public Filters(Set<Integer> pids, String commRegex, String loadRange, String groupBy,
      SampleSelection samples) {
    this(pids, commRegex, loadRange, groupBy, samples, null);
  }

  /** Without a sample selection. */
  public Filters(Set<Integer> pids, String commRegex, String loadRange, String groupBy) {
    this(pids, commRegex, loadRange, groupBy, null);
  }

  /** Without grouping: the form used before --group-by existed. */
  public Filters(Set<Integer> pids, String commRegex, String loadRange) {
    this(pids, commRegex, loadRange, null);
  }

  public static Filters none() {
    return new Filters(null, null, null);
  }
}
