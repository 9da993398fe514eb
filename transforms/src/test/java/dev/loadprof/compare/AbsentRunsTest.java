package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.report.Analysis;
import dev.loadprof.report.GroupBy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A run in which the benchmark process never ran (here: a recording of the phases program under
 * a candidate's name) is left out of the process's figures, not counted as 0 ns; a process that
 * ran on one side only is a finding of its own.
 */
class AbsentRunsTest {
  /** A real trace of ../shared/workloads/phases: no process named mixed ran in it. */
  static final String NO_MIXED = "/traces/phases_wakeup";

  static Comparison compare(List<String> baseline, Map<String, String> candidate) {
    Map<String, String> ids = new LinkedHashMap<>();
    baseline.forEach(b -> ids.put(b, b));
    ids.putAll(candidate);
    Analysis a = TraceRuns.analysis(ids, GroupBy.NONE, Pattern.compile("^mixed$"));
    return Compare.compare(a, TraceRuns.sides(baseline, new ArrayList<>(candidate.values())),
        CompareSettings.DEFAULT);
  }

  static MetricComparison row(Comparison c, String function, Metric m) {
    MetricComparison r = c.row(new SeriesKey("", "mixed", function, m));
    assertNotNull(r, function + " " + m.id() + ": " + new CompareText().render(c));
    return r;
  }

  /**
   * 5 base runs against 4 par runs plus the run without mixed: on main that run counted as 0 ns,
   * so the candidate looked faster in one run and the regression was "~" at 5+5.
   */
  @Test
  void aRunWithoutTheProcessIsLeftOutOfItsFigures() {
    Map<String, String> candidate = new LinkedHashMap<>();
    runs("par", 1, 2, 3, 4).forEach(r -> candidate.put(r, r));
    candidate.put(NO_MIXED, "par-9");
    Comparison c = compare(runs("base", 1, 2, 3, 4, 5), candidate);
    String text = new CompareText().render(c);
    MetricComparison real = row(c, null, Metric.REAL_TIME);
    assertEquals(5, real.nBaseline(), text);
    assertEquals(4, real.nCandidate(), text);
    assertEquals(List.of("par-9"), real.absentCandidate());
    assertEquals(List.of(), real.absentBaseline());
    assertTrue(real.isRegression(), text);
    assertEquals(Verdict.REGRESSION, c.verdict(), text);
    // The same n for every figure of the process and of its functions.
    for (MetricComparison r : c.rows()) {
      if (!r.metric().equals(Metric.AVG_LOAD) || !r.key().isFunction()) {
        assertEquals("5+4", r.nBaseline() + "+" + r.nCandidate(), r.key() + " " + text);
      }
    }
    assertEquals(4, row(c, null, Metric.AVG_LOAD).nCandidate());
    assertTrue(c.notes().contains("mixed did not run in candidate run par-9: left out of its"
        + " figures (n = 5+4)"), c.notes().toString());
    assertTrue(CompareJson.change(real).toString().contains("\"absent_candidate_runs\":[\"par-9\"]"),
        CompareJson.change(real).toString());
  }

  /** nightly: the latest night's run has no mixed (the benchmark did not run that night). */
  @Test
  void nightlySaysMissingWhenTheLatestNightLacksTheProcess() throws Exception {
    Map<String, String> ids = new LinkedHashMap<>();
    List<String> base = runs("base", 1, 2, 3, 4, 5);
    for (int i = 0; i < base.size(); i++) {
      ids.put(base.get(i), "mixed-2026-11-0" + (i + 1) + "-a");
    }
    ids.put(NO_MIXED, "mixed-2026-11-06-a");
    Nightly n = NightlyHistory.nightly(TraceRuns.analysis(ids, GroupBy.NONE,
        Pattern.compile("^mixed$")), NightlySettings.DEFAULT);
    String json = NightlyFixturesTest.describe(n);
    assertEquals(Verdict.MISSING, n.verdict(), json);
    assertEquals(4, n.exitCode());
    assertEquals(MetricComparison.MISSING, n.changes().get(0).kind(), json);
  }

  @Test
  void aProcessAbsentFromEveryRunOfASideIsMissing() {
    Map<String, String> candidate = new LinkedHashMap<>();
    candidate.put(NO_MIXED, "par-9");
    Comparison c = compare(runs("base", 1, 2, 3, 4), candidate);
    String text = new CompareText().render(c);
    MetricComparison real = row(c, null, Metric.REAL_TIME);
    assertEquals(MetricComparison.MISSING, real.kind(), text);
    assertTrue(real.change(), text);
    assertEquals(List.of("par-9"), real.absentCandidate());
    assertEquals(Verdict.MISSING, c.verdict(), text);
    assertEquals(4, c.exitCode());
    assertEquals(List.of(real), c.changes(), "no other figure of mixed is compared");
    assertTrue(text.contains("verdict: missing"), text);
    assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("mixed is missing: it ran in no"
        + " candidate run (par-9) but in 4 baseline runs")), c.notes().toString());
    assertTrue(CompareJson.change(real).toString().contains("\"candidate\":null"));
  }
}
