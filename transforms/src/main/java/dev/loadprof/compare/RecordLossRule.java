package dev.loadprof.compare;

import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether the records perf lost leave a run out of a comparison. A lost record moves a figure by
 * about its own weight (a sample's period; a switch's interval until the next record of its CPU
 * repairs the chain), so losses move the figures of the processes that ran meanwhile by about
 * their share of the records read there. A run is left out only when the losses within the
 * compared processes' span (from the first instant one of them ran to the last) are more than
 * {@link #SHARE_OF_MIN_RELATIVE} of the smallest relative change reported (--threshold, 5 % by
 * default: 1 %) of the records read in that span: more could make or hide a reported change on
 * their own. Otherwise the run is kept and a note says what was lost and where.
 *
 * <p>The records counted are the samples, switches and wakeups read ({@link LossTimeline}).
 * Losses without an instant count as within the span; so do all the losses of a run read before
 * loadprof kept their instants (an older archive), against all its records.
 */
final class RecordLossRule {
  /** The share of records lost in the span that leaves a run out, as a part of --threshold. */
  static final double SHARE_OF_MIN_RELATIVE = 0.2;

  /** Either why the run is left out, or the note that states its loss beside it; or neither. */
  record Verdict(String leaveOutBecause, String note) {}

  private RecordLossRule() {}

  /** The compared processes' span in each run, {first, last} ns (the idle task left out). */
  static Map<String, long[]> spans(Analysis all) {
    return spans(all.processes());
  }

  static Map<String, long[]> spans(List<ProcessLoad> processes) {
    Map<String, long[]> spans = new HashMap<>();
    for (ProcessLoad p : processes) {
      if (p.pid == 0 || p.spanEndNs < p.spanStartNs) {
        continue;
      }
      long[] s = spans.computeIfAbsent(p.runId, k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
      s[0] = Math.min(s[0], p.spanStartNs);
      s[1] = Math.max(s[1], p.spanEndNs);
    }
    return spans;
  }

  /**
   * @param span the compared processes' span in the run, or null when none of them ran in it
   * @return null when perf lost nothing
   */
  static Verdict judge(RunInfo run, long[] span, double minRelative) {
    long lost = run.health.get(TraceHealth.LOST_EVENTS);
    if (lost <= 0) {
      return null;
    }
    LossTimeline t = run.losses;
    long placed = t.totalLost() - t.unplaced();
    String lostText = String.format(Locale.ROOT, "perf lost %d events", lost);
    long[] at = t.lossRange();
    String where = at == null ? "" : " at " + range(run, at[0], at[1]) + " of the trace";
    if (span == null) {
      return new Verdict(null, "run " + run.runId + ": " + lostText + where + "; no compared"
          + " process ran in it: kept");
    }
    long within = t.lostWithin(span[0], span[1]) + Math.max(0, lost - placed);
    String spanText = "the compared processes' span (" + range(run, span[0], span[1]) + ")";
    if (within == 0) {
      return new Verdict(null, "run " + run.runId + ": " + lostText + where + ", none within "
          + spanText + ": kept");
    }
    boolean instants = t.totalLost() > 0; // the run was read with them (not an older archive)
    double records = instants && t.hasRecords() ? t.recordsWithin(span[0], span[1])
        : run.health.get(TraceHealth.SAMPLE_RECORDS) + run.health.get(TraceHealth.SWITCH_RECORDS)
            + run.health.get(TraceHealth.WAKEUP_RECORDS);
    double share = records <= 0 ? 1 : within / records;
    double limit = SHARE_OF_MIN_RELATIVE * minRelative;
    String figures = String.format(Locale.ROOT, "%s, %d of them within %s%s: %.2f%% of the %.0f"
        + " records read there", lostText, within, spanText, instants ? ""
            : " (their instants are not known: archived before loadprof kept them)",
        100 * share, records);
    String rule = String.format(Locale.ROOT, "%.2f%% (a fifth of the %.1f%% threshold)",
        100 * limit, 100 * minRelative);
    if (share > limit) {
      return new Verdict(figures + ", more than " + rule + ": the figures of the processes"
          + " that ran meanwhile may be off by more than the smallest change reported", null);
    }
    return new Verdict(null, "run " + run.runId + ": " + figures + ", not more than " + rule
        + ": kept");
  }

  /** "0.52 s to 0.61 s" from the run's first record. */
  private static String range(RunInfo run, long from, long to) {
    return String.format(Locale.ROOT, "%.2f s to %.2f s", (from - run.startNs) / 1e9,
        (to - run.startNs) / 1e9);
  }
}
