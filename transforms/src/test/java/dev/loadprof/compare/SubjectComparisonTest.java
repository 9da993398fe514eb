package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.runs;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.compare.Attribution.Cause;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.GroupBy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Without --comm or --pid, compare and nightly compare the subject: the program perf started
 * (mixed, in the recorded fixtures: perf record -a ... -- ./mixed), with what it started; the
 * other processes of the system-wide recordings (perf itself, kernel threads) are not compared.
 * A new build under another name is the same subject.
 */
class SubjectComparisonTest {
  static final String MIXED = "mixed";

  /** The fixtures under their own names, every process (no selection). */
  static Analysis all(List<String> baseline, List<String> candidate) {
    Map<String, String> ids = new LinkedHashMap<>();
    baseline.forEach(r -> ids.put(r, r));
    candidate.forEach(r -> ids.put(r, r));
    return TraceRuns.analysis(ids, GroupBy.NONE);
  }

  /** The same analysis with the subject of the given runs renamed (a build named mixed2). */
  static Analysis renamed(Analysis a, List<String> runIds, String name) {
    Set<String> ids = Set.copyOf(runIds);
    for (RunInfo r : a.runs()) {
      if (ids.contains(r.runId)) {
        r.processNames.put(r.subjectPid, name);
      }
    }
    return a.narrowed(p -> true,
        p -> ids.contains(p.runId) && a.isSubject(p) && p.comm.equals(MIXED) ? name : p.comm);
  }

  static Set<String> comparedProcesses(Comparison c) {
    Set<String> names = new TreeSet<>();
    c.rows().forEach(r -> names.add(r.key().process()));
    return names;
  }

  static String describe(Comparison c) {
    return new CompareText().render(c);
  }

  static void assertCpuRegressionOfSerialSection(Comparison c) {
    MetricComparison serial = c.row(new SeriesKey("", MIXED, "serial_section",
        Metric.REAL_TIME));
    assertNotNull(serial, describe(c));
    assertTrue(serial.change() && serial.isRegression(), describe(c));
    assertEquals(Cause.CPU, serial.attribution().cause(), describe(c));
    assertEquals(Verdict.REGRESSION, c.verdict(), describe(c));
    assertEquals(3, c.exitCode());
  }

  @Test
  void theSubjectIsComparedAndNothingElse() {
    List<String> base = runs("base", 1, 2, 3, 4, 5);
    List<String> cpu = runs("cpu", 1, 2, 3, 4, 5);
    Analysis a = all(base, cpu);
    Set<String> recorded = new TreeSet<>();
    a.processes().forEach(p -> recorded.add(p.comm));
    assertTrue(recorded.size() > 1 && recorded.contains("perf"), recorded.toString());
    Comparison c = Compare.compare(a, TraceRuns.sides(base, cpu), CompareSettings.DEFAULT);
    assertCpuRegressionOfSerialSection(c);
    assertEquals(Set.of(MIXED), comparedProcesses(c), describe(c));
    assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("comparing subject mixed, the"
        + " program perf started in every run, with any processes it started; the ")
        && n.endsWith(" other processes of the recordings are not compared: they count only"
        + " where they took its CPUs (interference)")), c.notes().toString());
  }

  @Test
  void aNewBuildUnderAnotherNameIsTheSameSubject() {
    List<String> base = runs("base", 1, 2, 3, 4, 5);
    List<String> cpu = runs("cpu", 1, 2, 3, 4, 5);
    Analysis a = renamed(all(base, cpu), cpu, "mixed2");
    Map<String, Side> sides = TraceRuns.sides(base, cpu);
    Comparison c = Compare.compare(a, sides, CompareSettings.DEFAULT);
    // By name alone, mixed would be missing from the candidate and mixed2 from the baseline.
    assertCpuRegressionOfSerialSection(c);
    assertEquals(Set.of(MIXED), comparedProcesses(c), describe(c));
    assertEquals(1, c.notes().stream().filter(n -> n.startsWith("comparing subject mixed"
        + " (baseline) with mixed2 (candidate), the program perf started in each run (a new"
        + " build under another name), with any processes it started; the ")).count(),
        c.notes().toString());
    // The outputs (profiles, diff.folded, compare.html) show the candidate under the same name.
    ComparedProcesses.Chosen chosen = ComparedProcesses.forCompare(a, sides);
    Set<String> shown = new TreeSet<>();
    chosen.analysis().processes().forEach(p -> shown.add(chosen.analysis().comm(p.runId, p.pid)));
    assertEquals(Set.of(MIXED), shown);
  }

  @Test
  void aChosenSelectionWins() {
    Map<String, String> ids = new LinkedHashMap<>();
    List.of("base-1", "base-2", "cpu-1", "cpu-2").forEach(r -> ids.put(r, r));
    Analysis a = TraceRuns.analysis(ids, GroupBy.NONE, Pattern.compile("^perf$"));
    Comparison c = Compare.compare(a, TraceRuns.sides(runs("base", 1, 2), runs("cpu", 1, 2)),
        CompareSettings.DEFAULT);
    assertEquals(Set.of("perf"), comparedProcesses(c), describe(c));
    assertFalse(c.notes().stream().anyMatch(n -> n.contains("subject")), c.notes().toString());
  }

  /** Text without task records (perf script without --show-task-events) names no subject. */
  @Test
  void withoutASubjectTheProcessesOfEveryRunAreCompared() {
    List<String> base = runs("base", 1, 2, 3);
    List<String> cpu = runs("cpu", 1, 2, 3);
    Analysis a = all(base, cpu);
    for (RunInfo r : a.runs()) {
      r.subjectPid = RunInfo.NO_SUBJECT;
      r.subjectPids.clear();
    }
    Set<String> inEvery = null;
    for (RunInfo r : a.runs()) {
      Set<String> names = new TreeSet<>();
      a.processes().stream().filter(p -> p.runId.equals(r.runId)).forEach(p -> names.add(p.comm));
      if (inEvery == null) {
        inEvery = names;
      } else {
        inEvery.retainAll(names);
      }
    }
    Set<String> anywhere = new TreeSet<>();
    a.processes().forEach(p -> anywhere.add(p.comm));
    assertTrue(anywhere.size() > inEvery.size(), anywhere + " vs " + inEvery);
    Comparison c = Compare.compare(a, TraceRuns.sides(base, cpu), CompareSettings.DEFAULT);
    assertEquals(inEvery, comparedProcesses(c), describe(c));
    assertTrue(c.notes().contains("no subject: run base-1 does not say which program perf"
        + " started (perf record -a without a command, or perf script without"
        + " --show-task-events); comparing the processes that ran in every run, by name: "
        + String.join(", ", inEvery) + " (--comm chooses others)"), c.notes().toString());
  }

  @Test
  void noProcessInEveryRunIsBadInputThatNamesWhatWasSeen() {
    List<ProcessLoad> processes = new ArrayList<>();
    List<RunInfo> runs = new ArrayList<>();
    String[][] seen = {{"b1", "gzip"}, {"b2", "gzip"}, {"c1", "node"}, {"c2", "bash"}};
    for (String[] s : seen) {
      RunInfo r = new RunInfo();
      r.runId = s[0];
      r.processNames.put(10, s[1]);
      runs.add(r);
      ProcessLoad p = new ProcessLoad();
      p.runId = s[0];
      p.pid = 10;
      p.comm = s[1];
      p.samples = 100;
      p.cpuNs = 100_000_000L;
      p.cpuNsAtLoad = new long[] {0, p.cpuNs};
      p.samplesAtLoad = new long[] {0, 100};
      p.timeAtLoadNs = new long[] {0, p.cpuNs};
      processes.add(p);
    }
    Analysis a = new Analysis(runs, processes, List.of(), LoadRange.ALL);
    CompareInputException e = assertThrows(CompareInputException.class, () -> Compare.compare(
        a, TraceRuns.sides(List.of("b1", "b2"), List.of("c1", "c2")), CompareSettings.DEFAULT));
    assertEquals("no process ran in every run, and run b1 does not say which program perf"
        + " started (perf record -a without a command, or perf script without"
        + " --show-task-events): choose the processes to compare with --comm REGEX (or --pid);"
        + " the processes seen: gzip (2 of 4 runs), bash (1 of 4 runs), node (1 of 4 runs)",
        e.getMessage());
  }

  /** nightly: the program was renamed on the latest night; its history goes on. */
  @Test
  void nightlyFollowsTheSubjectUnderItsNewName() {
    Map<String, String> ids = new LinkedHashMap<>();
    List<String> fixtures = new ArrayList<>(runs("base", 1, 2, 3, 4, 5));
    fixtures.add("cpu-2");
    for (int i = 0; i < fixtures.size(); i++) {
      ids.put(fixtures.get(i), "mixed-" + NightlyFixturesTest.FIRST.plusDays(i) + "-a");
    }
    String latest = ids.get("cpu-2");
    Analysis a = renamed(TraceRuns.analysis(ids, GroupBy.NONE), List.of(latest), "mixed2");
    Nightly n = NightlyHistory.nightly(a, NightlySettings.DEFAULT);
    assertEquals(Verdict.REGRESSION, n.verdict(), n.notes().toString());
    MetricComparison first = n.changes().get(0);
    assertEquals(new SeriesKey("mixed", "mixed2", "serial_section", Metric.REAL_TIME),
        first.key(), n.changes().toString());
    assertThat(String.join("\n", n.notes()), containsString("benchmark mixed: comparing"
        + " subject mixed2 (named mixed on earlier nights), the program perf started in every"
        + " run, with any processes it started"));
  }
}
