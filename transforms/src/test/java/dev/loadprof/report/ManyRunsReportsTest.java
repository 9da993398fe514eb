package dev.loadprof.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** groups.txt, runs.txt and the many-runs parts of summary.json and the console. */
class ManyRunsReportsTest {
  /** Group-by spec, and the golden directory under testdata/many_runs/. */
  static Stream<Arguments> specs() {
    return Stream.of(
        Arguments.of("none", "none"),
        Arguments.of("host", "host"),
        Arguments.of("comm", "comm"),
        Arguments.of("run:^(\\w+)-", "run_prefix"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("specs")
  void groupsAndRunsMatchGoldens(String spec, String dir) throws IOException {
    Analysis a = ManyRunsFixtures.fleet(spec);
    Golden.check("many_runs/" + dir + "/groups.txt", new GroupsReport().render(a));
    Golden.check("many_runs/" + dir + "/summary.json", json(a));
    // The run table does not depend on the grouping: one golden for all.
    Golden.check("many_runs/runs.txt", new RunsReport().render(a));
    Golden.check("many_runs/" + ConsoleSummary.FILE_NAME, new ConsoleSummary().render(a));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("specs")
  void groupsGatherTheExpectedMembers(String spec, String dir) {
    Map<String, List<String>> expected =
        switch (dir) {
          case "none", "comm" ->
              Map.of(
                  "backup", List.of("nightly-02/400"),
                  "db", List.of("canary-01/220", "nightly-01/200", "nightly-02/210"),
                  "web", List.of("canary-01/300"));
          case "host" ->
              Map.of(
                  "alpha", List.of("canary-01/220", "canary-01/300", "nightly-01/200"),
                  "beta", List.of("nightly-02/210", "nightly-02/400"));
          default ->
              Map.of(
                  "canary", List.of("canary-01/220", "canary-01/300"),
                  "nightly", List.of("nightly-01/200", "nightly-02/210", "nightly-02/400"));
        };
    List<ProcessGroup> groups = Grouping.of(ManyRunsFixtures.fleet(spec));
    List<String> names = new ArrayList<>();
    for (ProcessGroup g : groups) {
      names.add(g.name());
      List<String> members = new ArrayList<>();
      for (ProcessLoad p : g.members()) {
        members.add(p.runId + "/" + p.pid);
      }
      assertEquals(expected.get(g.name()), members, "members of " + g.name());
    }
    assertEquals(expected.keySet().stream().sorted().toList(), names);
  }

  @Test
  void groupHistogramsAreWeightedByTimeNotAveraged() {
    Analysis a = ManyRunsFixtures.shortSerialLongParallel();
    List<ProcessGroup> groups = Grouping.of(a);
    assertEquals(1, groups.size());
    ProcessLoad t = groups.get(0).total();
    // 1 s at load 1 and 3 s at load 2: 25% / 75% of real time, not the runs' 50/50 average.
    assertThat(t.realFraction(1), closeTo(0.25, 1e-12));
    assertThat(t.realFraction(2), closeTo(0.75, 1e-12));
    assertArrayEquals(new long[] {0, 1_000_000_000L, 3_000_000_000L}, t.timeAtLoadNs);
    assertArrayEquals(new long[] {0, 1_000_000_000L, 6_000_000_000L}, t.cpuNsAtLoad);
    assertArrayEquals(new long[] {0, 1000, 6000}, t.samplesAtLoad);
    String text = new GroupsReport().render(a);
    List<String> lines = List.of(text.split("\n"));
    assertThat(lines, hasItem(" 1 [25.00%]: " + "*".repeat(13)));
    assertThat(lines, hasItem(" 2 [75.00%]: " + "*".repeat(38)));
    // CPU time: 1 s of 7 s at load 1.
    assertThat(t.cpuFraction(1), closeTo(1.0 / 7, 1e-12));
    assertThat(groups.get(0).serialFraction().fraction(), closeTo(0.25, 1e-12));
    assertThat(groups.get(0).serialFraction().amdahlLimit(), closeTo(4, 1e-12));
    // Functions merge across the runs by name, flat real % of the group's 4 s.
    FunctionTable f = groups.get(0).functions();
    assertEquals("parallel_part", f.rows().get(0).name());
    assertThat(f.rows().get(0).flatRealPct(), closeTo(75, 1e-9));
    assertThat(f.rows().get(1).flatRealPct(), closeTo(25, 1e-9));
  }

  @Test
  void serialFractionAndAmdahlLimitOnKnownNumbers() {
    // 2 s at load 1 of 4 s on a CPU (load 0 does not count): half serial, at most 2x faster.
    SerialFraction half = SerialFraction.of(new long[] {500, 2000, 1000, 0, 1000});
    assertEquals(2000, half.serialNs());
    assertEquals(4000, half.onCpuNs());
    assertThat(half.fraction(), closeTo(0.5, 1e-12));
    assertThat(half.amdahlLimit(), closeTo(2, 1e-12));
    assertEquals("50.00%", half.fractionText());
    assertEquals("2.00x", half.limitText());

    SerialFraction none = SerialFraction.of(new long[] {0, 0, 5000});
    assertThat(none.fraction(), closeTo(0, 0));
    assertTrue(Double.isInfinite(none.amdahlLimit()));
    assertEquals("inf", none.limitText());

    SerialFraction neverRan = SerialFraction.of(new long[] {700});
    assertFalse(neverRan.defined());
    assertEquals("-", neverRan.fractionText());
    assertEquals("-", neverRan.limitText());
  }

  @Test
  void runTableRowsComeFromEachRunsHeadline() throws IOException {
    Analysis a = ManyRunsFixtures.fleet("none");
    List<RunRow> rows = RunRow.of(a);
    assertEquals(
        List.of("canary-01", "nightly-01", "nightly-02"),
        rows.stream().map(RunRow::runId).toList());
    RunRow canary = rows.get(0);
    assertEquals(220, canary.headline().pid);
    // 4 s at load 1 of 5 s on a CPU.
    assertThat(canary.serialFraction().fraction(), closeTo(0.8, 1e-12));
    assertThat(canary.serialFraction().amdahlLimit(), closeTo(1.25, 1e-12));
    assertEquals(5_000_000_000L, canary.wallNs());
    assertEquals(12_000_000_000L, canary.cpuNs());

    JsonNode row = new ObjectMapper().readTree(json(a)).get("run_table").get(1);
    assertEquals("nightly-01", row.get("run_id").asText());
    assertEquals(
        List.of("run_id", "host", "pid", "comm", "wall_ns", "cpu_ns", "avg_load",
            "serial_fraction", "amdahl_limit"),
        fieldNames(row));
    assertThat(row.get("serial_fraction").asDouble(), closeTo(0.5, 1e-12));
    assertThat(row.get("amdahl_limit").asDouble(), closeTo(2, 1e-12));
  }

  @Test
  void aRunWithoutProcessesStillGetsARow() throws IOException {
    Analysis fleet = ManyRunsFixtures.fleet("none");
    List<RunInfo> runs = new ArrayList<>(fleet.runs());
    RunInfo empty = Fixtures.run("empty-01", 0, 1);
    empty.host = "";
    runs.add(empty);
    Analysis a = new Analysis(runs, fleet.processes(), fleet.threadStacks(), LoadRange.ALL);
    String text = new RunsReport().render(a);
    String line = text.lines().filter(l -> l.startsWith("empty-01")).findFirst().orElseThrow();
    assertEquals(List.of("empty-01", "-", "-", "-", "-", "-", "-", "-", "-"),
        List.of(line.split(" +")));
    JsonNode row = new ObjectMapper().readTree(json(a)).get("run_table").get(1);
    assertEquals("empty-01", row.get("run_id").asText());
    assertTrue(row.get("pid").isNull());
    assertTrue(row.get("serial_fraction").isNull());
    assertTrue(row.get("amdahl_limit").isNull());
  }

  @ParameterizedTest
  @ValueSource(strings = {"hosts", "pid", "host:alpha", "run:", "run:(", "comm:db", "run:[a-"})
  void badSpecsAreRejectedWithAClearMessage(String spec) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> GroupBy.parse(spec));
    assertThat(e.getMessage(), containsString("bad group-by \"" + spec + "\""));
  }

  @Test
  void specsParseAndPrintBack() {
    assertSame(GroupBy.NONE, GroupBy.parse(null));
    assertSame(GroupBy.NONE, GroupBy.parse(" "));
    assertSame(GroupBy.NONE, GroupBy.parse("none"));
    for (String spec : List.of("host", "comm", "run", "run:^(\\w+)-", "run:nightly")) {
      assertEquals(spec, GroupBy.parse(spec).toString());
      assertEquals(GroupBy.parse(spec), GroupBy.parse(GroupBy.parse(spec).toString()));
    }
    assertEquals("host", GroupBy.parse(" HOST ").toString());
  }

  @Test
  void groupNamesFollowTheSpec() {
    RunInfo run = Fixtures.run("nightly-01", 0, 1);
    run.host = "";
    assertEquals(GroupBy.UNKNOWN_HOST, GroupBy.parse("host").groupOf(run, "db"));
    assertEquals("db", GroupBy.parse("comm").groupOf(run, "db"));
    assertEquals("db", GroupBy.NONE.groupOf(run, "db"));
    assertEquals("nightly-01", GroupBy.parse("run").groupOf(run, "db"));
    assertEquals("nightly", GroupBy.parse("run:^(\\w+)-").groupOf(run, "db"));
    // No capture group: the whole match.
    assertEquals("ly-0", GroupBy.parse("run:ly-\\d").groupOf(run, "db"));
    // No match, an empty match, or a group that took no part: (other).
    assertEquals(GroupBy.OTHER, GroupBy.parse("run:^canary").groupOf(run, "db"));
    assertEquals(GroupBy.OTHER, GroupBy.parse("run:x*").groupOf(run, "db"));
    assertEquals(GroupBy.OTHER, GroupBy.parse("run:(x)?nightly").groupOf(run, "db"));
  }

  @Test
  void aSingleRunKeepsItsOutputsUnlessAGroupingIsAsked() throws IOException {
    Analysis single = Fixtures.singleProcess();
    assertFalse(single.hasManyRunsReports());
    assertEquals(
        List.of("critical.folded", "critical.pb.gz", "flame.folded", "flame.speedscope.json",
            "functions.txt", "histogram.txt",
            "offcpu.folded", "offcpu.pb.gz", "profile.pb.gz", "report.html",
            "summary.json", "summary.txt"),
        new ArrayList<>(ReportsTest.writeAll(single).keySet()));
    assertThat(new ConsoleSummary().render(single), org.hamcrest.Matchers.not(containsString("Runs")));

    Analysis grouped =
        new Analysis(single.runs(), single.processes(), single.threadStacks(), single.loadFilter(),
            GroupBy.parse("host"));
    Map<String, byte[]> withGroups = ReportsTest.writeAll(grouped);
    assertEquals(
        List.of("critical.folded", "critical.pb.gz", "flame.folded", "flame.speedscope.json",
            "functions.txt", "groups.txt",
            "histogram.txt", "offcpu.folded", "offcpu.pb.gz", "profile.pb.gz",
            "report.html", "runs.txt", "summary.json", "summary.txt"),
        new ArrayList<>(withGroups.keySet()));
    // The files a single run always had are byte for byte the same with a grouping.
    Map<String, byte[]> plain = ReportsTest.writeAll(single);
    for (String name : List.of("flame.folded", "functions.txt", "histogram.txt",
        "profile.pb.gz")) {
      assertArrayEquals(plain.get(name), withGroups.get(name), name);
    }
  }

  @Test
  void manyRunsWriteGroupsAndRuns() throws IOException {
    Map<String, byte[]> files = ReportsTest.writeAll(ManyRunsFixtures.fleet("host"));
    assertTrue(files.containsKey(GroupsReport.FILE_NAME));
    assertTrue(files.containsKey(RunsReport.FILE_NAME));
  }

  @Test
  void theConsoleListsTenRunsThenHowManyMore() {
    List<RunInfo> runs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      runs.add(Fixtures.run(String.format("run-%02d", i), 0, 1));
    }
    String text = new ConsoleSummary().render(new Analysis(runs, List.of(), List.of(), LoadRange.ALL));
    assertThat(text, containsString("  run-09 "));
    assertFalse(text.contains("run-10 "));
    assertThat(text, containsString("  ... 2 more (see runs.txt)\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("specs")
  void shuffledInputGivesIdenticalBytes(String spec, String dir) throws IOException {
    Analysis a = ManyRunsFixtures.fleet(spec);
    Map<String, byte[]> expected = ReportsTest.writeAll(a);
    String console = new ConsoleSummary().render(a);
    for (long seed = 1; seed <= 5; seed++) {
      Analysis shuffled = Fixtures.shuffled(a, seed);
      assertEquals(a.groupBy(), shuffled.groupBy());
      Map<String, byte[]> actual = ReportsTest.writeAll(shuffled);
      assertEquals(expected.keySet(), actual.keySet());
      for (String name : expected.keySet()) {
        assertArrayEquals(expected.get(name), actual.get(name), name + " seed " + seed);
      }
      assertEquals(console, new ConsoleSummary().render(shuffled));
    }
  }

  @Test
  void summaryJsonHasGroupsOnlyWithManyRunsOrAGrouping() throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    Analysis single = Fixtures.classic();
    assertNull(mapper.readTree(json(single)).get("groups"));
    Analysis grouped =
        new Analysis(single.runs(), single.processes(), single.threadStacks(), single.loadFilter(),
            GroupBy.parse("run"));
    JsonNode groups = mapper.readTree(json(grouped)).get("groups");
    assertEquals("run", groups.get("group_by").asText());
    assertEquals("app", groups.get("groups").get(0).get("name").asText());
  }

  private static String json(Analysis a) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SummaryJson().write(a, out);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
