package dev.loadprof.compare;

import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import java.util.List;

/**
 * A run left out of the statistics because its trace is damaged or unusable, with why: its
 * health warnings, verbatim, or what perf lost where the compared processes ran
 * ({@link RecordLossRule}).
 */
public record ExcludedRun(String runId, String reason) {

  /**
   * Null when the run is kept: it has no warning but the one of perf's lost records, and those
   * losses do not leave it out ({@link RecordLossRule}); the note that states them is then added
   * to {@code notes}.
   *
   * @param span the compared processes' span in the run ({@link RecordLossRule#spans}), or null
   */
  static ExcludedRun judge(RunInfo run, long[] span, CompareSettings s, List<String> notes) {
    if (hasWarningsBesidesLosses(run)) {
      return new ExcludedRun(run.runId, String.join("; ", run.warnings));
    }
    RecordLossRule.Verdict losses = RecordLossRule.judge(run, span,
        s.thresholds().minRelative());
    if (losses == null) {
      return null;
    }
    if (losses.leaveOutBecause() != null) {
      return new ExcludedRun(run.runId, losses.leaveOutBecause());
    }
    notes.add(losses.note());
    return null;
  }

  /**
   * Whether the run has a warning other than perf's lost records: left out whatever its
   * losses ({@link #judge}'s first rule, which needs no compared processes).
   */
  static boolean hasWarningsBesidesLosses(RunInfo run) {
    List<String> w = run.warnings == null ? List.of() : run.warnings;
    return w.stream().anyMatch(warning -> !LossTimeline.isWarningOf(run, warning));
  }
}
