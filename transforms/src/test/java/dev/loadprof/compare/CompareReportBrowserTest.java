package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.Fixtures;
import dev.loadprof.report.ProcessGroup;
import dev.loadprof.report.browser.Chromium;
import dev.loadprof.report.browser.Hostile;
import dev.loadprof.report.browser.Tab;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * compare.html in a real headless Chromium, on the recorded fixtures (5 base runs against 5 cpu
 * or 5 par runs, benchmark process only): the changes and figures of compare.json, the
 * overlaid histograms, the differential flame graph's causes, hover, zoom and search, and
 * hostile names. Screenshots go to target/browser/.
 */
class CompareReportBrowserTest {
  static final Path OUT = Path.of("target", "browser");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Chromium browser;

  @BeforeAll
  static void start() throws Exception {
    browser = Chromium.launchOrSkip("compare.html");
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  /** Writes every compare output of these sides into target/browser/NAME; the directory. */
  static Path write(String name, Analysis all, Comparison c) throws IOException {
    Path dir = OUT.resolve(name);
    Files.createDirectories(dir);
    CompareOutputs.writeAll(all, c, files(dir));
    return dir;
  }

  /** Opens each named output as a file in dir, as the writers want them. */
  static Function<String, OutputStream> files(Path dir) {
    return file -> {
      try {
        return Files.newOutputStream(dir.resolve(file));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  /** The fixtures compared, written, and opened; the open tab. */
  private static Tab open(String name, List<String> baseline, List<String> candidate)
      throws Exception {
    List<String> all = new ArrayList<>(baseline);
    all.addAll(candidate);
    Analysis a = TraceRuns.mixed(all);
    Comparison c = Compare.compare(a, TraceRuns.sides(baseline, candidate),
        CompareSettings.DEFAULT);
    Path dir = write(name, a, c);
    Tab tab = browser.newTab(1280, 1000);
    tab.open(dir.resolve(CompareReport.FILE_NAME));
    return tab;
  }

  private static JsonNode json(String name) throws IOException {
    return JSON.readTree(OUT.resolve(name).resolve(CompareJson.FILE_NAME).toFile());
  }

  static String f(String format, double v) {
    return String.format(Locale.ROOT, format, v);
  }

  /** As the page formats a duration (LP.seconds). */
  static String seconds(double ns) {
    double s = ns / 1e9;
    return Math.abs(s) >= 1 ? f("%.3f s", s) : Math.abs(s) >= 1e-3 ? f("%.2f ms", s * 1e3)
        : f("%.1f µs", s * 1e6);
  }

  /** The cells' text of the changes table, row by row. */
  static JsonNode cells(Tab tab, String table) throws IOException {
    return tab.evaluate("[...document.querySelectorAll('" + table + " tbody tr')]"
        + ".map(r => Object.fromEntries([...r.cells].map((c, i) => [r.closest('table')"
        + ".tHead.rows[0].cells[i].textContent.replace(/[ ▲▼]+$/, ''), c.textContent])))");
  }

  /** The row of compare.json's changes for this function's real time, and its index. */
  private static int changeIndex(JsonNode json, String function) {
    JsonNode changes = json.get("changes");
    for (int i = 0; i < changes.size(); i++) {
      JsonNode r = changes.get(i);
      if (function.equals(r.path("function").asText()) && "real_time".equals(
          r.get("metric").asText())) {
        return i;
      }
    }
    throw new AssertionError("no real-time change of " + function + " in " + changes);
  }

  /** The page's row of a change shows compare.json's figures as the page formats them. */
  private static void assertRowShows(JsonNode row, JsonNode expected) {
    assertEquals(expected.get("function").asText(), row.get("function").asText());
    assertEquals("real time", row.get("metric").asText());
    assertEquals(seconds(expected.get("baseline").asDouble()), row.get("baseline").asText());
    assertEquals(seconds(expected.get("candidate").asDouble()), row.get("candidate").asText());
    assertEquals(f("+%.1f%%", expected.get("delta_pct").asDouble()), row.get("change").asText());
    assertEquals(expected.get("kind").asText(), row.get("kind").asText());
    assertTrue(row.get("significance").asText().startsWith(
        "p=" + new java.math.BigDecimal(expected.get("p_value").asDouble())
            .round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString()),
        row.get("significance").asText());
    assertTrue(row.get("cause").asText().startsWith(expected.get("cause").asText() + " (CPU "),
        row.get("cause").asText());
  }

  @Test
  void cpuRegressionShowsTheChangesOfCompareJsonWithCauseCpu() throws Exception {
    Tab tab = open("compare-cpu", runs("base", 1, 2, 3, 4, 5), runs("cpu", 1, 2, 3, 4, 5));
    JsonNode json = json("compare-cpu");
    assertEquals("regression", tab.evaluate("document.querySelector('#verdict .big')"
        + ".textContent").asText());
    assertTrue(tab.evaluate("document.querySelector('#verdict .scope') === null").asBoolean(),
        "a regression needs no scope");
    JsonNode rows = cells(tab, "#changes");
    assertEquals(json.get("changes").size(), rows.size(), "one row per change");
    int i = changeIndex(json, "serial_section");
    JsonNode serial = json.get("changes").get(i);
    assertEquals("cpu", serial.get("cause").asText());
    assertRowShows(rows.get(i), serial);
    assertEquals("p=0.0079", rows.get(i).get("significance").asText().substring(0, 8),
        "every cpu run above every base run: p = 2/252");
    // No run has a health warning, so no run is listed as left out.
    assertTrue(tab.evaluate("document.getElementById('excluded') === null").asBoolean());
    // Every process figure of compare.json, reported or not.
    assertEquals(json.get("processes").size(), cells(tab, "#process-figures").size());

    // The diff flame graph: serial_section got wider, by CPU work; parallel_section did not
    // change its cause to parallelism.
    JsonNode frame = tab.evaluate("(() => { const g = document.querySelector("
        + "'#flame g.frame[data-name=serial_section]'); return {cause: g.dataset.cause,"
        + " delta: +g.dataset.deltaNs}; })()");
    assertEquals("cpu", frame.get("cause").asText());
    assertEquals(serial.get("candidate").asDouble() - serial.get("baseline").asDouble(),
        frame.get("delta").asDouble(), 0.15 * Math.abs(serial.get("candidate").asDouble()
            - serial.get("baseline").asDouble()),
        "the frame's change per run is about the change of the medians");
    tab.hover("#flame g.frame[data-name=serial_section]");
    String tip = tab.evaluate("document.getElementById('lp-tip').innerText").asText();
    for (String part : List.of("real time: baseline ", " · candidate ", "CPU time: baseline ",
        "average load: baseline ", "cause: cpu")) {
      assertTrue(tip.contains(part), tip);
    }
    // The tooltip's real times are the frame's per-run figures, as diff.folded sums them.
    double[] folded = foldedRealTime("compare-cpu", "serial_section");
    // Compared as numbers: JS and Java round a half-way last digit differently.
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("real time: baseline ([0-9.]+) ms · candidate ([0-9.]+) ms").matcher(tip);
    assertTrue(m.find(), tip);
    assertEquals(folded[0] / 1e6, Double.parseDouble(m.group(1)), 0.006, tip);
    assertEquals(folded[1] / 1e6, Double.parseDouble(m.group(2)), 0.006, tip);

    tab.screenshot(OUT.resolve("report-compare.png"), 2600);
    tab.screenshot(OUT.resolve("report-compare-readme.png"), 1500);
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  /** Baseline and candidate real ns per run of the stacks through a frame, from diff.folded. */
  private static double[] foldedRealTime(String name, String frame) throws IOException {
    double[] sum = new double[2];
    for (String line : Files.readAllLines(OUT.resolve(name).resolve(SideProfiles.DIFF_FILE))) {
      String[] parts = line.split(" ");
      if (List.of(parts[0].split(";")).contains(frame)) {
        sum[0] += Double.parseDouble(parts[1]);
        sum[1] += Double.parseDouble(parts[2]);
      }
    }
    return sum;
  }

  @Test
  void parallelismRegressionShowsCauseParallelismAndTheLoadShift() throws Exception {
    List<String> base = runs("base", 1, 2, 3, 4, 5);
    List<String> par = runs("par", 1, 2, 3, 4, 5);
    Tab tab = open("compare-par", base, par);
    JsonNode json = json("compare-par");
    int i = changeIndex(json, "parallel_section");
    JsonNode parallel = json.get("changes").get(i);
    assertEquals("parallelism", parallel.get("cause").asText());
    assertRowShows(cells(tab, "#changes").get(i), parallel);
    assertEquals("parallelism", tab.evaluate("document.querySelector("
        + "'#flame g.frame[data-name=parallel_section]').dataset.cause").asText());

    // The overlaid histograms: each side's time at load k, summed over its runs.
    Analysis a = TraceRuns.mixed(new ArrayList<>(List.of("base-1", "base-2", "base-3",
        "base-4", "base-5", "par-1", "par-2", "par-3", "par-4", "par-5")));
    Map<String, List<ProcessLoad>> sides = new HashMap<>();
    for (ProcessLoad p : a.processes()) {
      sides.computeIfAbsent(p.runId.substring(0, 3), k -> new ArrayList<>()).add(p);
    }
    ProcessLoad baseSum = ProcessGroup.sum("mixed", sides.get("bas"));
    ProcessLoad parSum = ProcessGroup.sum("mixed", sides.get("par"));
    for (int k = 1; k <= 2; k++) {
      assertEquals(f("%.2f", 100 * baseSum.realFraction(k)), bar(tab, "baseline", k));
      assertEquals(f("%.2f", 100 * parSum.realFraction(k)), bar(tab, "candidate", k));
    }
    assertTrue(parSum.realFraction(1) > baseSum.realFraction(1) + 0.2,
        "the candidate spends far more real time at load 1");
    tab.screenshot(OUT.resolve("report-compare-par.png"), 2600);
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  private static String bar(Tab tab, String side, int k) throws IOException {
    return tab.evaluate("document.querySelector('#histogram-real rect[data-series=" + side
        + "][data-k=\"" + k + "\"]').getAttribute('data-pct')").asText();
  }

  @Test
  void clickingADiffFrameZoomsAndSearchHighlights() throws Exception {
    Tab tab = open("compare-cpu-zoom", runs("base", 1, 2), runs("cpu", 2, 3));
    String frames = "document.querySelectorAll('#flame g.frame').length";
    int before = tab.evaluate(frames).asInt();
    tab.click("#flame g.frame[data-name=serial_section]");
    assertTrue(tab.evaluate("document.querySelector('#flame .crumbs').textContent").asText()
        .endsWith("serial_section"));
    double ratio = tab.evaluate("(() => { const s = document.querySelector('#flame svg');"
        + " const r = s.querySelector('g.frame[data-name=serial_section] rect');"
        + " return r.getBoundingClientRect().width / s.getBoundingClientRect().width; })()")
        .asDouble();
    assertTrue(ratio > 0.99, "zoomed frame width / graph width = " + ratio);
    assertFalse(tab.evaluate("!!document.querySelector('#flame g.frame"
        + "[data-name=parallel_section]')").asBoolean(), "frames outside the zoom are gone");
    tab.screenshotOf("#flame", OUT.resolve("report-compare-zoomed.png"));
    tab.click("#flame g.frame[data-depth=\"0\"]");
    assertEquals(before, tab.evaluate(frames).asInt());

    tab.type("#flame input[type=search]", "section");
    List<String> matched = new ArrayList<>();
    tab.evaluate("[...document.querySelectorAll('#flame g.frame.match')].map(g => g.dataset"
        + ".name)").forEach(n -> matched.add(n.asText()));
    assertTrue(matched.containsAll(List.of("serial_section", "parallel_section")), matched
        .toString());
    assertTrue(matched.stream().allMatch(n -> n.contains("section")), matched.toString());
    assertTrue(tab.evaluate("document.querySelector('#flame .controls .note').textContent")
        .asText().matches("matched [0-9.]+% of the candidate real time shown \\(\\d+ frames\\)"));
    tab.screenshotOf("#flame", OUT.resolve("report-compare-search.png"));
    // Widths: the larger of the two sides keeps frames that only the baseline has.
    tab.click("#flame input[type=radio][value=max]");
    assertTrue(tab.evaluate(frames).asInt() >= before);
    assertEquals(List.of(), tab.errors());
  }

  @Test
  void hostileNamesRenderAsTextAndRunNoScript() throws Exception {
    List<String> names = Hostile.NAMES;
    List<StackWeight> stacks = new ArrayList<>();
    List<ProcessLoad> processes = new ArrayList<>();
    List<dev.loadprof.model.RunInfo> infos = new ArrayList<>();
    Map<String, Side> sides = new HashMap<>();
    for (String run : List.of(names.get(1) + "-b", names.get(1) + "-c")) {
      boolean candidate = run.endsWith("-c");
      List<StackWeight> mine = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        mine.add(Fixtures.stack(run, 7, 1 + i % 2, (candidate ? 3000 : 1000) + 100 * i,
            names.get(i), names.get(0) + "@/lib", "main@" + names.get(2)));
      }
      stacks.addAll(mine);
      processes.add(Fixtures.process(run, 7, names.get(3), mine, 100, 3000, 3000));
      dev.loadprof.model.RunInfo info = Fixtures.run(run, 0, 10_000 * Fixtures.MS);
      infos.add(info);
      sides.put(run, candidate ? Side.CANDIDATE : Side.BASELINE);
    }
    Analysis a = new Analysis(infos, processes, stacks, LoadRange.ALL);
    Comparison c = Compare.compare(a, sides, CompareSettings.DEFAULT);
    assertFalse(c.changes().isEmpty(), "the hostile functions got slower");
    Path dir = write("compare-hostile", a, c);
    Path page = dir.resolve(CompareReport.FILE_NAME);
    String html = Files.readString(page, StandardCharsets.UTF_8);
    assertFalse(html.contains("</script><script>window"), "raw </script> in the page");
    assertFalse(html.contains("\u2028"), "raw U+2028 in the page");
    Tab tab = browser.newTab(1280, 1000);
    tab.open(page);
    assertTrue(tab.evaluate(Hostile.NOTHING_RAN).asBoolean(), "a payload ran");
    assertEquals(0, tab.evaluate(Hostile.PAYLOAD_ELEMENTS).asInt());
    List<String> shown = new ArrayList<>();
    tab.evaluate("[...document.querySelectorAll('#changes td.name')].map(c => c.textContent)")
        .forEach(n -> shown.add(n.asText()));
    assertTrue(shown.containsAll(names), "every hostile name shown as text: " + shown);
    List<String> frames = new ArrayList<>();
    tab.evaluate("[...document.querySelectorAll('#flame g.frame')].map(g => g.dataset.name)")
        .forEach(n -> frames.add(n.asText()));
    assertTrue(frames.containsAll(names), "every hostile name is a frame: " + frames);
    tab.type("#flame input[type=search]", names.get(1).substring(0, 12));
    assertTrue(tab.evaluate("document.querySelectorAll('#flame g.frame.match').length").asInt()
        > 0);
    tab.hover("#flame g.frame.match");
    tab.screenshot(OUT.resolve("report-compare-hostile.png"), 1800);
    assertTrue(tab.evaluate(Hostile.NOTHING_RAN).asBoolean(), "a payload ran");
    assertEquals(List.of(), tab.errors(), "no console errors (a CSP violation is one)");
  }

  /**
   * Changes of other figures beside a "no change" verdict (real runs with a busy neighbour:
   * waits grew, real time did not): the verdict says it is about real time.
   */
  @Test
  void noChangeBesideOtherChangesSaysInRealTime() throws Exception {
    List<String> baseline = runs("base", 1, 2, 3, 4, 5);
    List<String> candidate = runs("cpu", 1, 2, 3, 4, 5);
    List<String> all = new ArrayList<>(baseline);
    all.addAll(candidate);
    Analysis a = TraceRuns.mixed(all);
    Comparison cpu = Compare.compare(a, TraceRuns.sides(baseline, candidate),
        CompareSettings.DEFAULT);
    List<MetricComparison> otherFigures = new ArrayList<>();
    for (MetricComparison r : cpu.rows()) {
      if (!r.metric().isRealTime()) {
        otherFigures.add(r);
      }
    }
    Comparison c = new Comparison(cpu.settings(), cpu.baselineRuns(), cpu.candidateRuns(),
        cpu.excluded(), otherFigures, cpu.notes());
    assertEquals(Verdict.NO_CHANGE, c.verdict());
    assertFalse(c.changes().isEmpty(), "the CPU time's changes stay");
    Tab tab = browser.newTab(1280, 1000);
    tab.open(write("compare-other-figures", a, c).resolve(CompareReport.FILE_NAME));
    assertEquals("no change in real time · exit code 0",
        tab.evaluate("document.getElementById('verdict').textContent").asText());
  }

  /** The headers of the changes table. */
  private static JsonNode changeHeaders(Tab tab) throws IOException {
    return JSON.readTree(tab.evaluate("JSON.stringify([...document.querySelectorAll("
        + "'#changes th')].map(th => th.textContent))").asText());
  }

  /** Without a critical path on both sides (these fixtures have no sched_wakeup), no column. */
  @Test
  void noCriticalPathColumnWithoutPaths() throws Exception {
    Tab tab = open("no-critical-column", TraceRuns.runs("base", 1, 2),
        TraceRuns.runs("cpu", 1, 2));
    JsonNode heads = changeHeaders(tab);
    assertTrue(heads.size() > 5, heads.toString());
    assertFalse(heads.toString().contains("critical"), heads.toString());
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  /**
   * With a path in every run (hand-made figures of CriticalCauseTest: serial's time on the path
   * grew 200 ms, par_b's CPU 300 ms off the path), the column names serial for the process and
   * gives each function its own change.
   */
  @Test
  void theCriticalPathColumnNamesTheFunction() throws Exception {
    Comparison c = CriticalCauseTest.compare(true, true, 600, 600);
    Path dir = write("critical-column", new Analysis(List.of(), List.of(), List.of(),
        LoadRange.ALL), c);
    Tab tab = browser.newTab(1400, 1000);
    tab.open(dir.resolve(CompareReport.FILE_NAME));
    JsonNode heads = changeHeaders(tab);
    int col = -1;
    for (int i = 0; i < heads.size(); i++) {
      col = heads.get(i).asText().startsWith("critical path") ? i : col;
    }
    assertTrue(col >= 0, heads.toString());
    JsonNode rows = JSON.readTree(tab.evaluate("JSON.stringify([...document.querySelectorAll("
        + "'#changes tbody tr')].filter(tr => tr.children[3].textContent === 'real time')"
        + ".map(tr => [tr.children[2].textContent, tr.children[" + col + "].textContent]))")
        .asText());
    assertEquals("[\"(whole process)\",\"serial +200.00 ms (path +200.00 ms)\"]",
        rows.get(0).toString(), rows.toString());
    assertTrue(rows.toString().contains("[\"par_b\",\"±0.0 µs of the path’s +200.00 ms\"]"),
        rows.toString());
    assertEquals(List.of(), tab.errors(), "no console errors");
  }
}
