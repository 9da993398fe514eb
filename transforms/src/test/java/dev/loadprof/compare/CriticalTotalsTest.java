package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import dev.loadprof.testtools.JavaSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What nightly keeps of a past run's critical path (CriticalPath.totalsOnly: its length and its
 * time per function and wait) gives every figure the whole path gives, to the bit, at a
 * fraction of the stored size. On two real recordings of mixed with paths.
 */
class CriticalTotalsTest {
  @Test
  void theTotalsGiveTheWholePathsFiguresAtAFractionOfItsSize() throws Exception {
    Analysis a = recordings();
    long whole = 0;
    long totals = 0;
    for (ProcessLoad p : a.processes()) {
      CriticalPath path = p.criticalPath;
      assertNotNull(path, p.runId);
      CriticalPath kept = path.totalsOnly();
      assertEquals(path.pathNs(), kept.pathNs(), p.runId);
      assertEquals(RunMetrics.criticalFunctionsOf(path), RunMetrics.criticalFunctionsOf(kept),
          p.runId);
      assertEquals(path.onCpuNs(), kept.onCpuNs());
      assertEquals(path.runnableOtherNs(), kept.runnableOtherNs());
      whole += JavaSerialization.bytes(path).length;
      totals += JavaSerialization.bytes(kept).length;
    }
    assertTrue(totals * 3 < whole, "totals " + totals + " bytes against " + whole);
  }

  /** A comparison of the runs with their totals only says what it says with their paths. */
  @Test
  void aComparisonOfTheTotalsSaysWhatOneOfTheWholePathsSays() {
    Analysis a = recordings();
    String withPaths = new CompareText().render(compare(a));
    a.processes().forEach(p -> p.criticalPath = p.criticalPath.totalsOnly());
    assertEquals(withPaths, new CompareText().render(compare(a)));
    assertTrue(withPaths.contains("serial_section"), withPaths);
  }

  private static Analysis recordings() {
    Map<String, String> ids = new LinkedHashMap<>();
    ids.put("critical-base", "base-1");
    ids.put("critical-slow", "slow-1");
    return TraceRuns.assembled(ids, "^mixed$");
  }

  private static Comparison compare(Analysis a) {
    return Compare.compare(a, TraceRuns.sides(List.of("base-1"), List.of("slow-1")),
        CompareSettings.DEFAULT);
  }
}
