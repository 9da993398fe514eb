package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Item 7 of issue 33 on hand-made per-run figures: a real-time change names the function whose
 * time on the critical path changed most, where every run of both sides has a path, and says
 * nothing more where one lacks it.
 *
 * <p>The program "app": serial (on the path), then par_a and par_b in parallel, par_a the longer
 * of the two and so on the path. The candidate's serial is 200 ms slower (on the path), and
 * par_b does 300 ms more CPU, which costs nothing: par_a still ends later. The CPU figures point
 * at par_b (its CPU grew most); the path points at serial, the code that made the run longer.
 */
class CriticalCauseTest {
  private static final double MS = 1e6;

  /** One run's figures; jitter ms keeps the runs apart so the tests have a spread. */
  static Map<SeriesKey, Double> run(double serialMs, double parBCpuMs, double jitter,
      boolean path) {
    Map<SeriesKey, Double> m = new TreeMap<>();
    double realMs = serialMs + 300 + jitter;
    put(m, null, realMs, serialMs + 300 + parBCpuMs + jitter, path ? realMs : null);
    put(m, "serial", serialMs + jitter, serialMs + jitter, path ? serialMs + jitter : null);
    put(m, "par_a", 150, 300, path ? 300.0 : null);
    put(m, "par_b", parBCpuMs / 2, parBCpuMs, null); // never on the path: 0 where one exists
    return m;
  }

  private static void put(Map<SeriesKey, Double> m, String function, double realMs,
      double cpuMs, Double criticalMs) {
    SeriesKey k = new SeriesKey("", "app", function, Metric.REAL_TIME);
    m.put(k, realMs * MS);
    m.put(k.with(Metric.CPU_TIME), cpuMs * MS);
    m.put(k.with(Metric.AVG_LOAD), cpuMs / realMs);
    if (criticalMs != null) {
      m.put(k.with(Metric.CRITICAL_TIME), criticalMs * MS);
    }
  }

  static Comparison compare(boolean baselinePaths, boolean candidatePaths, double serialC,
      double parBC) {
    Map<String, Map<SeriesKey, Double>> byRun = new TreeMap<>();
    List<String> b = new ArrayList<>();
    List<String> c = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      byRun.put("b" + i, run(400, 300, 2 * i, baselinePaths));
      byRun.put("c" + i, run(serialC, parBC, 2 * i, candidatePaths));
      b.add("b" + i);
      c.add("c" + i);
    }
    return Compare.compare(byRun, b, c, List.of(), CompareSettings.DEFAULT);
  }

  private static MetricComparison real(Comparison c, String function) {
    MetricComparison r = c.row(new SeriesKey("", "app", function, Metric.REAL_TIME));
    assertNotNull(r, function + ": " + new CompareText().render(c));
    return r;
  }

  @Test
  void aRegressionNamesTheFunctionWhosePathTimeGrewNotTheOneWhoseCpuGrewMost() {
    Comparison c = compare(true, true, 600, 600);
    String text = new CompareText().render(c);
    MetricComparison process = real(c, null);
    assertTrue(process.isRegression(), text);
    Attribution.CriticalChange cp = process.attribution().critical();
    assertNotNull(cp, text);
    assertEquals("serial", cp.function(), text);
    assertEquals(200 * MS, cp.functionChangeNs(), 1e-3);
    assertEquals(200 * MS, cp.pathChangeNs(), 1e-3);
    assertFalse(cp.own());
    // par_b's CPU grew more than serial's, yet it is not on the path.
    assertTrue(c.row(new SeriesKey("", "app", "par_b", Metric.CPU_TIME)).delta()
        > c.row(new SeriesKey("", "app", "serial", Metric.CPU_TIME)).delta());
    Attribution.CriticalChange parB = real(c, "par_b").attribution().critical();
    assertEquals(0, parB.functionChangeNs(), 1e-3, "par_b is never on the path");
    assertTrue(parB.own());
    assertTrue(CompareText.detail(process).endsWith("; critical path +200.0ms, most in serial"
        + " +200.0ms"), text);
    assertTrue(CompareText.detail(real(c, "par_b")).endsWith("; on the critical path +0.0us of"
        + " the path's +200.0ms"), text);
    String json = CompareJson.change(process).toString();
    assertTrue(json.contains("\"critical_path_change_ns\":200000000,\"critical_function\":"
        + "\"serial\",\"critical_function_change_ns\":200000000"), json);
    // The function's time on the path is a figure of its own, compared as CPU time is.
    MetricComparison serialPath = c.row(new SeriesKey("", "app", "serial",
        Metric.CRITICAL_TIME));
    assertTrue(serialPath.isRegression(), text);
    assertNull(serialPath.attribution(), "only real-time rows carry a cause");
  }

  @Test
  void anImprovementNamesTheFunctionWhosePathTimeShrankMost() {
    Comparison c = compare(true, true, 250, 300);
    MetricComparison process = real(c, null);
    assertEquals(MetricComparison.IMPROVEMENT, process.kind());
    assertEquals("serial", process.attribution().critical().function());
    assertEquals(-150 * MS, process.attribution().critical().functionChangeNs(), 1e-3);
  }

  @Test
  void withoutAPathOnEveryRunNothingIsNamed() {
    for (boolean[] sides : new boolean[][] {{true, false}, {false, true}, {false, false}}) {
      Comparison c = compare(sides[0], sides[1], 600, 600);
      String text = new CompareText().render(c);
      for (MetricComparison r : c.rows()) {
        assertTrue(r.attribution() == null || r.attribution().critical() == null, r + text);
      }
      assertFalse(text.contains("critical"), text);
      assertFalse(CompareJson.change(real(c, null)).toString().contains("critical"));
    }
    // One baseline run without a path (a per-process recording among them): not named.
    Map<String, Map<SeriesKey, Double>> byRun = new TreeMap<>();
    List<String> b = new ArrayList<>();
    List<String> c = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      byRun.put("b" + i, run(400, 300, 2 * i, i != 3));
      byRun.put("c" + i, run(600, 600, 2 * i, true));
      b.add("b" + i);
      c.add("c" + i);
    }
    Comparison mixed = Compare.compare(byRun, b, c, List.of(), CompareSettings.DEFAULT);
    assertNull(real(mixed, null).attribution().critical());
    assertEquals(4, mixed.row(new SeriesKey("", "app", "serial", Metric.CRITICAL_TIME))
        .nBaseline(), "the run without a path has no figure, not 0");
  }

  @Test
  void nightlyNamesItToo() {
    Map<String, Map<SeriesKey, Double>> byRun = new TreeMap<>();
    TreeMap<LocalDate, List<String>> nights = new TreeMap<>();
    for (int n = 0; n < 5; n++) {
      List<String> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String id = "app-night" + n + "-" + i;
        byRun.put(id, n < 4 ? run(400, 300, 3 * n + i, true) : run(600, 600, i, true));
        runs.add(id);
      }
      nights.put(LocalDate.of(2026, 11, 1 + n), runs);
    }
    Comparison c = NightlyLatest.compare(nights, byRun, CompareSettings.DEFAULT);
    MetricComparison process = real(c, null);
    assertTrue(process.isRegression(), new CompareText().render(c));
    assertEquals("serial", process.attribution().critical().function());
    assertTrue(NightlyHistory.tracked(byRun, 3).contains(new SeriesKey("", "app", "serial",
        Metric.CRITICAL_TIME)), "in the history of the top functions");
  }

  /**
   * End to end on two real recordings of mixed (compare/critical-base, critical-slow): the
   * serial section 2 ms, then 5 ms an iteration. Both have paths (system-wide, wake-ups), so
   * the process's regression names serial_section, whose time on the path grew by about the
   * 12 x 3 ms it was made slower. Recorded at a load average of 10, the slower run's path also
   * waited ~76 ms more for CPUs a java process held: a wait for a CPU is scheduling, not code,
   * so it is a figure of its own but never the name in the column.
   */
  @Test
  void twoRecordingsWhereOneFunctionGotSlower() {
    Map<String, String> ids = new java.util.LinkedHashMap<>();
    ids.put("critical-base", "base-1");
    ids.put("critical-slow", "slow-1");
    dev.loadprof.report.Analysis a = TraceRuns.assembled(ids, "^mixed$");
    a.processes().forEach(p -> assertNotNull(p.criticalPath, p.runId + " has a path"));
    Comparison c = Compare.compare(a, TraceRuns.sides(List.of("base-1"), List.of("slow-1")),
        CompareSettings.DEFAULT);
    String text = new CompareText().render(c);
    MetricComparison process = c.row(new SeriesKey("", "mixed", null, Metric.REAL_TIME));
    assertTrue(process.isRegression(), text);
    Attribution.CriticalChange cp = process.attribution().critical();
    assertNotNull(cp, text);
    assertEquals("serial_section", cp.function(), text);
    assertEquals(36 * MS, cp.functionChangeNs(), 12 * MS, text);
    assertTrue(CompareText.detail(process).contains("most in serial_section +"), text);
    MetricComparison javaWait = c.row(new SeriesKey("", "mixed",
        "[waiting for a CPU: process java]", Metric.CRITICAL_TIME));
    assertTrue(javaWait.delta() > cp.functionChangeNs(), "the larger growth, not named: " + text);
  }

  /**
   * nightly's change points: a history where setup (serial, on the path) does 30 % more CPU
   * from night 10 on. The process's real-time change point names setup as the function whose
   * time on the path grew; the same history without paths names nothing (and keeps its other
   * figures).
   */
  @Test
  void aChangePointNamesTheCriticalFunction() {
    for (boolean withPaths : new boolean[] {true, false}) {
      Nightly n = setupSlower(withPaths);
      ChangePoint process = n.changePoints().stream().filter(cp -> !cp.key().isFunction()
          && cp.key().metric().isRealTime()).findFirst().orElse(null);
      assertNotNull(process, n.changePoints().toString());
      Attribution.CriticalChange critical = process.attribution().critical();
      if (!withPaths) {
        assertNull(critical);
        assertTrue(n.history().stream().noneMatch(h -> h.key().metric().isCritical()));
        continue;
      }
      assertNotNull(critical, process.toString());
      assertEquals("setup", critical.function());
      assertEquals(60 * MS, critical.functionChangeNs(), 15 * MS, "200 ms -> 260 ms");
      ChangePoint setup = NightlyFixturesTest.find(n, "setup", Metric.REAL_TIME);
      assertTrue(setup.attribution().critical().own());
    }
  }

  /** The synthetic app's 20 nights, setup 30 % slower from night 10; with paths or not. */
  static Nightly setupSlower(boolean withPaths) {
    dev.loadprof.report.Analysis a = new SyntheticNights(20, 2, 0.005, 10, -1).generate(7);
    if (withPaths) { // recorded with wake-ups, so compare takes the paths
      a.processes().forEach(p -> p.criticalPath = pathOf(a.filteredStacksOf(p)));
      a.runs().forEach(r -> {
        dev.loadprof.model.TraceHealth h = new dev.loadprof.model.TraceHealth();
        h.addAll(r.health);
        h.add(dev.loadprof.model.TraceHealth.WAKEUP_RECORDS, 1);
        r.health = h;
      });
    }
    return NightlyHistory.nightly(a, NightlySettings.DEFAULT.withSeed(7));
  }

  /** A path of the synthetic app: setup's CPU time, then crunch's real time, poll's CPU. */
  private static dev.loadprof.critical.CriticalPath pathOf(
      List<dev.loadprof.profile.StackWeight> stacks) {
    List<dev.loadprof.critical.CriticalPath.StackOnPath> onPath = new ArrayList<>();
    long total = 0;
    for (dev.loadprof.profile.StackWeight s : stacks) {
      long ns = s.cpuNs() / s.load();
      onPath.add(new dev.loadprof.critical.CriticalPath.StackOnPath(1,
          new dev.loadprof.model.CallStack(s.stack()), ns));
      total += ns;
    }
    return new dev.loadprof.critical.CriticalPath(0, total, List.of(
        new dev.loadprof.critical.CriticalPath.PathSegment(1, 0, total,
            dev.loadprof.critical.CriticalPath.Kind.RUNNING, "")), List.of(), List.of(),
        Map.of(), total, 0, 0, List.of(), Map.of(), onPath, List.of(), List.of());
  }
}
