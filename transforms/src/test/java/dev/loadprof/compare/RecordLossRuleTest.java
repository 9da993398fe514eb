package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * perf's lost records leave a run out of a comparison only when they fall within the compared
 * processes' span and are more than a fifth of --threshold's relative part (1 % by default) of
 * the records read there; otherwise the run is kept and a note states the loss. On the recorded
 * compare fixtures (mixed only, as compare --comm '^mixed$'), with losses added to their runs.
 */
class RecordLossRuleTest {
  static final List<String> BASE = runs("base", 1, 2, 3);
  static final List<String> CPU = runs("cpu", 1, 2, 3);

  /** The runs of the fixtures, their losses to be set by each test. */
  static Analysis analysis() {
    List<String> all = new ArrayList<>(BASE);
    all.addAll(CPU);
    return TraceRuns.mixed(all);
  }

  static RunInfo run(Analysis a, String id) {
    return a.runs().stream().filter(r -> r.runId.equals(id)).findFirst().orElseThrow();
  }

  static long[] span(Analysis a, String id) {
    return RecordLossRule.spans(a).get(id);
  }

  /** Adds {@code count} records lost at {@code timeNs} (0: no instant) as a read would. */
  static void lose(RunInfo run, long timeNs, long count) {
    unfreeze(run);
    boolean first = run.health.get(TraceHealth.LOST_EVENTS) == 0;
    run.warnings.removeIf(w -> LossTimeline.isWarningOf(run, w));
    run.health.add(TraceHealth.LOST_EVENTS, count);
    run.losses.lost(timeNs, count);
    run.warnings.add(LossTimeline.warning(run.source, run.health.get(TraceHealth.LOST_EVENTS)));
    assertTrue(first || run.warnings.size() >= 1);
  }

  /**
   * Gives the run health and warnings that take adds again: the analysis froze them for its
   * reports, and these tests change a run's losses after it is made, as a read would have.
   */
  static void unfreeze(RunInfo run) {
    if (run.health.isFrozen()) {
      TraceHealth health = new TraceHealth();
      health.addAll(run.health);
      run.health = health;
    }
    run.warnings = new ArrayList<>(run.warnings);
  }

  /**
   * Loses {@code share} of the records read in the run's span at {@code where} of the way
   * through it; returns {lost, records in the span}.
   */
  static double[] loseShare(Analysis a, String id, double share, double where) {
    RunInfo run = run(a, id);
    long[] span = span(a, id);
    double records = run.losses.recordsWithin(span[0], span[1]);
    long lost = (long) Math.ceil(share * records);
    lose(run, span[0] + (long) (where * (span[1] - span[0])), lost);
    return new double[] {lost, records};
  }

  static Comparison compare(Analysis a, CompareSettings s) {
    return Compare.compare(a, TraceRuns.sides(BASE, CPU), s);
  }

  static String text(Comparison c) {
    return new CompareText().render(c);
  }

  @Test
  void aFewLossesOutsideTheSpanKeepTheRunAndAreStated() {
    Analysis a = analysis();
    RunInfo run = run(a, "base-2");
    long[] span = span(a, "base-2");
    assertTrue(span[0] > run.startNs, "mixed starts after the recording");
    lose(run, (run.startNs + span[0]) / 2, 50); // before mixed's exec
    Comparison c = compare(a, CompareSettings.DEFAULT);
    assertEquals(BASE, c.baselineRuns(), text(c));
    assertTrue(c.excluded().isEmpty(), text(c));
    String note = c.notes().get(0);
    assertTrue(note.startsWith("run base-2: perf lost 50 events at 0.00 s to 0.00 s of the"
        + " trace, none within the compared processes' span ("), note);
    assertTrue(note.endsWith("): kept"), note);
    assertTrue(text(c).contains("note: " + note), text(c));
    assertTrue(new CompareJson().toJson(c).get("notes").toString().contains(note), "compare.json");
  }

  @Test
  void aFewLossesWithinTheSpanKeepTheRunWithTheirShare() {
    Analysis a = analysis();
    double[] lost = loseShare(a, "base-3", 0.004, 0.5);
    Comparison c = compare(a, CompareSettings.DEFAULT);
    assertEquals(BASE, c.baselineRuns(), text(c));
    String note = c.notes().get(0);
    assertTrue(note.startsWith(String.format(java.util.Locale.ROOT, "run base-3: perf lost %.0f"
        + " events, %.0f of them within the compared processes' span (", lost[0], lost[0])), note);
    assertTrue(note.contains(String.format(java.util.Locale.ROOT, ": %.2f%% of the %.0f records"
        + " read there, not more than 1.00%% (a fifth of the 5.0%% threshold): kept",
        100 * lost[0] / lost[1], lost[1])), note);
  }

  @Test
  void manyLossesWithinTheSpanLeaveTheRunOutSayingTheShareAndTheThreshold() {
    Analysis a = analysis();
    double[] share = loseShare(a, "cpu-2", 0.03, 1 / 3.0);
    long lost = (long) share[0];
    double records = share[1];
    Comparison c = compare(a, CompareSettings.DEFAULT);
    assertEquals(runs("cpu", 1, 3), c.candidateRuns(), text(c));
    assertEquals(1, c.excluded().size(), text(c));
    ExcludedRun out = c.excluded().get(0);
    assertEquals("cpu-2", out.runId());
    assertTrue(out.reason().startsWith("perf lost " + lost + " events, " + lost + " of them"
        + " within the compared processes' span ("), out.reason());
    assertTrue(out.reason().contains(String.format(java.util.Locale.ROOT, ": %.2f%% of the %d"
        + " records read there, more than 1.00%% (a fifth of the 5.0%% threshold): the figures"
        + " of the processes that ran meanwhile may be off", 100.0 * lost / records,
        Math.round(records))), out.reason());
    assertTrue(text(c).contains("left out of the statistics: cpu-2: perf lost"), text(c));
  }

  /** The share follows --threshold: 3 % lost is kept at 20 % (a 4 % limit), left out at 5 %. */
  @Test
  void theLimitIsAFifthOfTheRelativeThreshold() {
    for (Object[] row : new Object[][] {{0.05, false}, {0.20, true}, {0.10, false}}) {
      Analysis a = analysis();
      loseShare(a, "cpu-2", 0.03, 1);
      CompareSettings s = CompareSettings.DEFAULT.withThresholds(
          new Thresholds((double) row[0], Thresholds.DEFAULT.minAbsoluteNs()));
      Comparison c = compare(a, s);
      assertEquals(row[1], c.candidateRuns().contains("cpu-2"), row[0] + ": " + text(c));
    }
  }

  /**
   * Losses with no instant (perf without sample_id_all, or a run archived before loadprof kept
   * them) count as within the span, against all the run's records.
   */
  @Test
  void lossesWithoutAnInstantCountAsWithinTheSpan() {
    Analysis a = analysis();
    RunInfo run = run(a, "cpu-3");
    run.losses = new LossTimeline(); // as an older archive's run: its instants not known
    unfreeze(run);
    run.health.add(TraceHealth.LOST_EVENTS, 7);
    run.warnings.add(LossTimeline.warning(run.source, 7));
    Comparison c = compare(a, CompareSettings.DEFAULT);
    assertTrue(c.candidateRuns().contains("cpu-3"), text(c));
    String note = c.notes().get(0);
    assertTrue(note.startsWith("run cpu-3: perf lost 7 events, 7 of them within the compared"
        + " processes' span (") && note.contains("(their instants are not known: archived"
        + " before loadprof kept them)"), note);
    long records = run.health.get(TraceHealth.SAMPLE_RECORDS)
        + run.health.get(TraceHealth.SWITCH_RECORDS) + run.health.get(TraceHealth.WAKEUP_RECORDS);
    assertTrue(note.contains("of the " + records + " records read there"), note);
  }

  /** Another warning still leaves the run out, the loss's among its warnings. */
  @Test
  void anotherWarningStillLeavesTheRunOut() {
    Analysis a = analysis();
    RunInfo run = run(a, "base-1");
    lose(run, run.startNs + 1, 3);
    run.warnings.add("base-1: 12 malformed lines were skipped");
    Comparison c = compare(a, CompareSettings.DEFAULT);
    assertEquals(1, c.excluded().size(), text(c));
    assertEquals(String.join("; ", run.warnings), c.excluded().get(0).reason());
  }

  /** nightly applies the same rule to its runs. */
  @Test
  void nightlyStatesOrLeavesOutAsCompareDoes() {
    Map<String, String> ids = new java.util.LinkedHashMap<>();
    List<String> fixtures = runs("base", 1, 2, 3, 4, 5);
    for (int i = 0; i < fixtures.size(); i++) {
      ids.put(fixtures.get(i), "mixed-2026-11-0" + (i + 1));
    }
    Analysis a = TraceRuns.analysis(ids, dev.loadprof.report.GroupBy.NONE,
        java.util.regex.Pattern.compile("^mixed$"));
    RunInfo kept = run(a, "mixed-2026-11-02");
    lose(kept, kept.startNs + 1, 4); // before mixed ran
    loseShare(a, "mixed-2026-11-04", 0.05, 0);
    Nightly n = NightlyHistory.nightly(a, NightlySettings.DEFAULT);
    assertEquals(List.of("mixed-2026-11-04"), n.excluded().stream().map(ExcludedRun::runId)
        .toList());
    assertTrue(n.notes().stream().anyMatch(x -> x.startsWith("run mixed-2026-11-02: perf lost 4"
        + " events at ")), n.notes().toString());
  }

  /** The span is the compared processes' (pid 0 left out), over every process of the run. */
  @Test
  void theSpanRunsFromTheFirstComparedProcessToTheLast() {
    List<ProcessLoad> ps = new ArrayList<>();
    for (int[] p : new int[][] {{0, 1, 100}, {7, 20, 50}, {8, 30, 90}, {9, 5, 4}}) {
      ProcessLoad l = new ProcessLoad();
      l.runId = "r";
      l.pid = p[0];
      l.spanStartNs = p[1];
      l.spanEndNs = p[2];
      ps.add(l);
    }
    assertEquals(List.of(20L, 90L), java.util.Arrays.stream(RecordLossRule.spans(ps).get("r"))
        .boxed().toList());
  }
}
