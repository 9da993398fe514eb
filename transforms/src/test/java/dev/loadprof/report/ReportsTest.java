package dev.loadprof.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.profile.FoldedFrames;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReportsTest {
  private static final Pattern BAR_LINE = Pattern.compile("^ *\\d+ \\[\\d+\\.\\d{2}%\\]: \\**$");

  @Test
  void histogramLinesHaveTheBarLayout() {
    String text = new HistogramReport().render(Fixtures.classic());
    List<String> bars = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.contains("[")) {
        bars.add(line);
        assertThat(line, BAR_LINE.matcher(line).matches(), equalTo(true));
      }
    }
    assertEquals(2 * 64, bars.size()); // CPU and real, loads 1..64
    // Real time: 2 s at load 1, 1 s at load 64 => 66.67% and 33.33%.
    // Bars are indented by one space (" 1 [46.00%]: ****"), loads right-aligned to width 2.
    assertThat(bars, hasItem("  1 [66.67%]: " + "*".repeat(33)));
    assertThat(bars, hasItem(" 64 [33.33%]: " + "*".repeat(17)));
    assertThat(bars, hasItem("  1 [3.03%]: " + "*".repeat(2)));
    assertThat(bars, hasItem(" 64 [96.97%]: " + "*".repeat(48)));
  }

  @Test
  void classicCaseSplitsRealTimeTwoThirdsOneThird() {
    Analysis a = Fixtures.classic();
    FunctionTable t = FunctionTable.of(a, a.headline());
    FunctionRow serial = t.rows().get(0);
    FunctionRow parallel = t.rows().get(1);
    assertEquals("serial_setup", serial.name());
    assertThat(serial.flatRealPct(), closeTo(66.667, 0.001));
    assertThat(serial.flatCpuPct(), closeTo(3.03, 0.01));
    assertThat(parallel.flatRealPct(), closeTo(33.333, 0.001));
    assertThat(parallel.avgLoad(), closeTo(64, 1e-9));
    assertThat(t.bestLoad(), closeTo(64, 1e-9));
    // serial would save 66.67% x (1 - 1/64).
    assertThat(serial.savedPct(), closeTo(66.667 * 63 / 64, 0.001));
    assertThat(parallel.savedPct(), closeTo(0, 1e-12));
  }

  @Test
  void savedPercentExample() {
    assertThat(FunctionTable.savedPct(10, 10, 30), closeTo(6.67, 0.005));
    assertEquals("6.67", String.format("%.2f", FunctionTable.savedPct(10, 10, 30)));
    assertThat(FunctionTable.savedPct(10, 40, 30), equalTo(0.0)); // never negative
  }

  @Test
  void cumulativeCountsARecursiveFunctionOncePerStack() {
    Analysis a = Fixtures.singleProcess();
    FunctionTable t = FunctionTable.of(a, a.headline());
    FunctionRow recurse = row(t, "recurse");
    // 8000 ms at load 4 (recursing) + 1200 ms at load 4 = 2300 ms of 8300 ms real.
    assertEquals(2300 * Fixtures.MS, recurse.cumWallNs());
    assertThat(row(t, "main").cumRealPct(), closeTo(100, 1e-9));
  }

  /** FlameGraph's stackcollapse-perf.pl --kernel rule, so flamegraph.pl colors them as kernel. */
  @Test
  void foldedMarksKernelFramesLikeStackcollapsePerf() {
    for (String kernel : List.of("[kernel.kallsyms]", "[nf_conntrack]", "[vdso]",
        "/lib/modules/6.1.0/build/vmlinux")) {
      assertTrue(FoldedFrames.isKernel(kernel), kernel);
    }
    for (String user : List.of("[unknown]", "", "/usr/lib/x86_64-linux-gnu/libc.so.6",
        "/tmp/rec/workloads/phases", "/tmp/perf-42.map")) {
      assertFalse(FoldedFrames.isKernel(user), user);
    }
    String folded = new FoldedReport().render(Fixtures.mixed(LoadRange.ALL));
    assertThat(folded, containsString("trace-a;db;main;commit;spin_lock_[k] 3000000000\n"));
    assertThat(folded, containsString("trace-a;db;main;compute 1000000000\n"));
  }

  @Test
  void loadFilterAppliesToProfileFunctionsAndFoldedButNotHistograms() throws IOException {
    Analysis all = Fixtures.mixed(LoadRange.ALL);
    Analysis one = Fixtures.mixed(LoadRange.parse("1"));
    assertEquals(new HistogramReport().render(all), new HistogramReport().render(one));

    String folded = new FoldedReport().render(one);
    assertThat(folded, containsString("spin_lock"));
    assertThat(folded, not(containsString("hash_rows"))); // load 8
    assertThat(folded, not(containsString("handle;parse"))); // web's parse ran at load 2

    String functions = new FunctionsReport().render(one);
    assertThat(functions, containsString("load filter: 1;"));
    assertThat(functions, not(containsString("hash_rows")));

    var profile = Reports.pprof(one).build();
    for (var s : profile.getSampleList()) {
      assertEquals(1, s.getLabel(0).getNum());
    }
    assertThat(profile.getSampleCount(), greaterThan(0));
    assertThat(Reports.pprof(all).build().getSampleCount(), greaterThan(profile.getSampleCount()));

    // time at load and the histograms in summary.json are unfiltered too.
    JsonNode a = json(all).get("runs").get(1).get("processes").get(0);
    JsonNode o = json(one).get("runs").get(1).get("processes").get(0);
    assertEquals(a.get("time_at_load_ns"), o.get("time_at_load_ns"));
    assertEquals(a.get("realtime_histogram"), o.get("realtime_histogram"));
    assertThat(a.get("top_functions"), not(equalTo(o.get("top_functions"))));
  }

  @Test
  void shuffledInputGivesIdenticalBytes() throws IOException {
    for (Analysis a : List.of(Fixtures.mixed(LoadRange.ALL), Fixtures.mixed(LoadRange.parse("2:")),
        Fixtures.classic())) {
      Map<String, byte[]> expected = writeAll(a);
      for (long seed = 1; seed <= 5; seed++) {
        Map<String, byte[]> actual = writeAll(Fixtures.shuffled(a, seed));
        assertEquals(expected.keySet(), actual.keySet());
        for (String name : expected.keySet()) {
          assertArrayEquals(expected.get(name), actual.get(name), name + " seed " + seed);
        }
      }
      assertEquals(new ConsoleSummary().render(a), new ConsoleSummary().render(Fixtures.shuffled(a, 9)));
    }
  }

  @Test
  void writeAllWritesTheSixFilesByName() throws IOException {
    assertEquals(
        List.of("critical.folded", "critical.pb.gz", "flame.folded", "flame.speedscope.json",
            "functions.txt", "histogram.txt",
            "offcpu.folded", "offcpu.pb.gz",
            "profile.pb.gz", "report.html",
            "summary.json", "summary.txt"),
        new ArrayList<>(writeAll(Fixtures.classic()).keySet()));
  }

  @Test
  void processOrderIsMostSamplesThenRunThenPid() {
    Analysis a = Fixtures.mixed(LoadRange.ALL);
    List<String> order = new ArrayList<>();
    for (ProcessLoad p : a.processes()) {
      order.add(p.runId + "/" + p.pid);
    }
    assertEquals(List.of("trace-a/200", "trace-b/300", "trace-a/0", "trace-b/301"), order);
    assertEquals(200, a.headline().pid);
    assertThat(new HistogramReport().render(a), not(containsString("pid 0 ")));
  }

  @Test
  void summaryJsonHasTheDocumentedKeys() throws IOException {
    JsonNode root = json(Fixtures.mixed(LoadRange.ALL));
    // Two runs: the many-runs keys follow the original ones (single runs have only those).
    assertEquals(
        List.of("loadprof_version", "load_filter", "sample_filter", "headline", "runs", "run_table", "groups"),
        fieldNames(root));
    assertEquals(
        List.of("loadprof_version", "load_filter", "sample_filter", "headline", "runs"),
        fieldNames(json(Fixtures.classic())));
    assertEquals("0.1.0", root.get("loadprof_version").asText());
    assertEquals("db", root.get("headline").get("comm").asText());
    JsonNode run = root.get("runs").get(0);
    assertEquals("trace-a", run.get("run_id").asText());
    assertEquals(
        List.of("run_id", "source", "host", "sampling_event", "period_is_ns",
            "sample_interval_ns", "layout", "pid_source", "cpus", "start_ns", "end_ns", "health",
            "records", "malformed_examples", "warnings", "unusable_reason", "processes",
            "subject"),
        fieldNames(run));
    JsonNode p = run.get("processes").get(0);
    assertEquals(
        List.of("pid", "comm", "samples", "cpu_ns", "wall_ns", "time_at_load_ns",
            "cpu_histogram", "realtime_histogram", "avg_load", "health", "best_avg_load",
            "top_functions", "load_timeline", "subject"),
        fieldNames(p));
    assertEquals(2, root.get("runs").get(1).get("health").get("malformed_lines").asLong());
    assertEquals("cron", root.get("runs").get(1).get("processes").get(1).get("comm").asText());
  }

  @Test
  void consoleSummaryShowsHeadlineHistogramTopFunctionsAndRunProblems() {
    String text = new ConsoleSummary().render(Fixtures.mixed(LoadRange.ALL));
    assertThat(text, containsString("run trace-a pid 200 (db)"));
    assertThat(text, containsString("hash_rows"));
    assertThat(text, containsString("run trace-b: 2 malformed lines, 1 warnings"));
    assertThat(text, not(containsString("run trace-a: ")));
  }

  private static FunctionRow row(FunctionTable t, String name) {
    return t.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static JsonNode json(Analysis a) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SummaryJson().write(a, out);
    return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
  }

  static Map<String, byte[]> writeAll(Analysis a) throws IOException {
    Map<String, ByteArrayOutputStream> streams = new TreeMap<>();
    Reports.writeAll(a, name -> streams.computeIfAbsent(name, n -> new ByteArrayOutputStream()));
    Map<String, byte[]> bytes = new TreeMap<>();
    streams.forEach((name, s) -> bytes.put(name, s.toByteArray()));
    return bytes;
  }

  /**
   * The reports are made on all cores: each must give the bytes it gives alone. What they read
   * is final once the analysis is made: a run's health refuses adds (a counter added then was
   * folded by whichever report read it first, while others walked the map), and its warnings
   * are an immutable list.
   */
  @Test
  void reportsMadeOnAllCoresGiveTheBytesOfEachAlone() throws IOException {
    for (int round = 0; round < 30; round++) {
      Analysis a = Fixtures.mixed(LoadRange.ALL);
      for (var run : a.runs()) {
        assertThrows(IllegalStateException.class,
            () -> run.health.add(dev.loadprof.model.TraceHealth.LINES, 1));
        assertThrows(UnsupportedOperationException.class, () -> run.warnings.add("late"));
      }
      Map<String, ByteArrayOutputStream> together = new TreeMap<>();
      Reports.writeAll(a, name -> together.computeIfAbsent(name, k -> new ByteArrayOutputStream()));
      for (Report r : Reports.ALL) {
        if (r.appliesTo(a)) {
          ByteArrayOutputStream alone = new ByteArrayOutputStream();
          r.write(a, alone);
          assertArrayEquals(alone.toByteArray(), together.get(r.fileName()).toByteArray(),
              r.fileName() + " in round " + round);
        }
      }
      JsonNode summary = new ObjectMapper().readTree(together.get("summary.json").toByteArray());
      assertEquals(1_000, // the fixture's 1,000 lines
          summary.get("runs").get(0).get("health").get("lines").asLong());
    }
  }
}
