package dev.loadprof.compare;

import dev.loadprof.model.RunInfo;
import java.util.List;

/**
 * A run left out of the statistics because its trace is damaged or unusable, with why: its
 * health warnings, verbatim.
 */
public record ExcludedRun(String runId, String reason) {

  /** Null when the run is healthy (no warnings). */
  public static ExcludedRun ifUnhealthy(RunInfo run) {
    List<String> w = run.warnings;
    return w == null || w.isEmpty() ? null : new ExcludedRun(run.runId, String.join("; ", w));
  }
}
