package dev.loadprof.compare;

import static dev.loadprof.compare.NightlyFixturesTest.FIRST;
import static dev.loadprof.compare.NightlyFixturesTest.concat;
import static dev.loadprof.compare.NightlyFixturesTest.nights;
import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.Fixtures;
import dev.loadprof.report.browser.Chromium;
import dev.loadprof.report.browser.Hostile;
import dev.loadprof.report.browser.Tab;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * nightly.html in a real headless Chromium, on the recorded fixtures as nights (5 base nights,
 * then 4 cpu or 5 par nights): the change points of nightly.json in the table and marked on the
 * trend charts, the marks linking to their rows, the charted values of history.csv, and hostile
 * names. Screenshots go to target/browser/.
 */
class NightlyReportBrowserTest {
  static final Path OUT = CompareReportBrowserTest.OUT;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Chromium browser;

  @BeforeAll
  static void start() throws Exception {
    browser = Chromium.launchOrSkip("nightly.html");
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  static Path write(String name, Nightly n) throws IOException {
    Path dir = OUT.resolve(name);
    Files.createDirectories(dir);
    NightlyOutputs.writeAll(n, CompareReportBrowserTest.files(dir));
    return dir;
  }

  private static Tab open(Path dir) throws Exception {
    Tab tab = browser.newTab(1280, 1000);
    tab.open(dir.resolve(NightlyReport.FILE_NAME));
    return tab;
  }

  /** The index of nightly.json's change point of this function's (null: process's) metric. */
  private static int changePoint(JsonNode json, String function, String metric) {
    JsonNode cps = json.get("change_points");
    for (int i = 0; i < cps.size(); i++) {
      JsonNode cp = cps.get(i);
      if (Objects.equals(function, cp.has("function") ? cp.get("function").asText() : null)
          && metric.equals(cp.get("metric").asText())) {
        return i;
      }
    }
    throw new AssertionError("no change point of " + function + " " + metric + ": " + cps);
  }

  /** Row i of the change-point table: the page shows nightly.json's figures. */
  private static void assertChangePointRow(Tab tab, JsonNode cp, int i) throws IOException {
    JsonNode cells = tab.evaluate("[...document.getElementById('cp-" + i + "').cells]"
        + ".map(c => c.textContent)");
    assertEquals(cp.get("night").asText(), cells.get(0).asText());
    assertEquals(cp.get("benchmark").asText(), cells.get(1).asText());
    assertEquals(cp.path("function").asText("(whole process)"), cells.get(3).asText());
    assertEquals(CompareReportBrowserTest.seconds(cp.get("before").asDouble()),
        cells.get(5).asText());
    assertEquals(CompareReportBrowserTest.seconds(cp.get("after").asDouble()),
        cells.get(6).asText());
    assertEquals(CompareReportBrowserTest.f("+%.1f%%", cp.get("delta_pct").asDouble()),
        cells.get(7).asText());
    assertEquals("regression", cells.get(8).asText());
    assertTrue(cells.get(9).asText().startsWith(cp.get("cause").asText() + " (CPU "),
        cells.get(9).asText());
  }

  @Test
  void cpuRegressionIsMarkedAtItsNightAndLinksToItsRow() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(concat(runs("base", 1, 2, 3, 4, 5),
        runs("cpu", 2, 3, 4, 5))), NightlySettings.DEFAULT);
    Path dir = write("nightly-cpu", n);
    JsonNode json = JSON.readTree(dir.resolve(NightlyJson.FILE_NAME).toFile());
    Tab tab = open(dir);
    assertEquals(json.get("change_points").size(),
        tab.evaluate("document.querySelectorAll('#change-points tbody tr').length").asInt());
    int i = changePoint(json, "serial_section", "real_time");
    JsonNode cp = json.get("change_points").get(i);
    assertEquals(FIRST.plusDays(5).toString(), cp.get("night").asText());
    assertEquals("cpu", cp.get("cause").asText());
    assertChangePointRow(tab, cp, i);

    // The top functions' chart marks it at its night, linked to its row; clicking follows.
    String mark = "#bench-0 [data-metric=functions] a.changepoint[href=\"#cp-" + i + "\"]";
    assertEquals(cp.get("night").asText(), tab.evaluate("document.querySelector('" + mark
        + "').dataset.night").asText());
    tab.click(mark + " path");
    assertEquals("#cp-" + i, tab.evaluate("location.hash").asText());
    assertTrue(tab.evaluate("document.getElementById('cp-" + i + "').matches(':target')")
        .asBoolean());

    // Every night of the process's real time is a point with history.csv's value.
    List<String> csv = Files.readAllLines(dir.resolve(HistoryCsv.FILE_NAME));
    int checked = 0;
    for (String line : csv) {
      String[] f = line.split(",");
      if (f.length == 7 && f[2].isEmpty() && f[3].equals("real_time")) {
        double shown = tab.evaluate("+document.querySelector('#bench-0 [data-metric=real_time]"
            + " circle[data-night=\"" + f[4] + "\"]').dataset.value").asDouble();
        assertEquals(Double.parseDouble(f[6]), shown, 1e-6 * Math.abs(shown), line);
        checked++;
      }
    }
    assertEquals(9, checked, "one point per night");
    for (String metric : List.of("real_time", "serial_fraction", "avg_load", "functions")) {
      assertEquals(1, tab.evaluate("document.querySelectorAll('#bench-0 [data-metric=" + metric
          + "] svg').length").asInt(), metric + " chart");
    }
    tab.screenshot(OUT.resolve("report-nightly.png"), 2600);
    tab.screenshot(OUT.resolve("report-nightly-readme.png"), 1500);
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  @Test
  void parallelismRegressionIsMarkedWithCauseParallelism() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(concat(runs("base", 1, 2, 3, 4, 5),
        runs("par", 1, 2, 3, 4, 5))), NightlySettings.DEFAULT);
    Path dir = write("nightly-par", n);
    JsonNode json = JSON.readTree(dir.resolve(NightlyJson.FILE_NAME).toFile());
    Tab tab = open(dir);
    int i = changePoint(json, "parallel_section", "real_time");
    JsonNode cp = json.get("change_points").get(i);
    assertEquals("parallelism", cp.get("cause").asText());
    assertChangePointRow(tab, cp, i);
    assertTrue(tab.evaluate("!!document.querySelector('#bench-0 [data-metric=functions]"
        + " a.changepoint[href=\"#cp-" + i + "\"]')").asBoolean());
    // The whole process's real time: a change point of cause parallelism on its own chart.
    int process = changePoint(json, null, "real_time");
    assertEquals("parallelism", json.get("change_points").get(process).get("cause").asText());
    assertTrue(tab.evaluate("!!document.querySelector('#bench-0 [data-metric=real_time]"
        + " a.changepoint[href=\"#cp-" + process + "\"]')").asBoolean());
    tab.screenshot(OUT.resolve("report-nightly-par.png"), 2600);
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  @Test
  void hostileNamesRenderAsTextAndRunNoScript() throws Exception {
    List<String> names = Hostile.NAMES;
    List<RunInfo> infos = new ArrayList<>();
    List<ProcessLoad> processes = new ArrayList<>();
    List<StackWeight> stacks = new ArrayList<>();
    for (int night = 1; night <= 8; night++) {
      String run = names.get(0) + "-2026-11-0" + night + "-a";
      List<StackWeight> mine = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        long ms = (night > 5 && i == 1 ? 9000 : 1000) + 10 * night + 100 * i;
        mine.add(Fixtures.stack(run, 7, 1 + i % 2, ms, names.get(i), "main@" + names.get(2)));
      }
      stacks.addAll(mine);
      processes.add(Fixtures.process(run, 7, names.get(3), mine, 100, 3000, 3000));
      infos.add(Fixtures.run(run, 0, 20_000 * Fixtures.MS));
    }
    Nightly n = NightlyHistory.nightly(new Analysis(infos, processes, stacks, LoadRange.ALL),
        NightlySettings.DEFAULT);
    Path dir = write("nightly-hostile", n);
    String html = Files.readString(dir.resolve(NightlyReport.FILE_NAME), StandardCharsets.UTF_8);
    assertFalse(html.contains("</script><script>window"), "raw </script> in the page");
    assertFalse(html.contains("\u2028"), "raw U+2028 in the page");
    Tab tab = open(dir);
    assertTrue(tab.evaluate(Hostile.NOTHING_RAN).asBoolean(), "a payload ran");
    assertEquals(0, tab.evaluate(Hostile.PAYLOAD_ELEMENTS).asInt());
    assertEquals(names.get(0), tab.evaluate("document.querySelector('#bench-0')"
        + ".dataset.benchmark").asText());
    assertEquals(names.get(3), tab.evaluate("document.querySelector('#bench-0 .process-trends h3')"
        + ".textContent").asText());
    List<String> legend = new ArrayList<>();
    tab.evaluate("[...document.querySelectorAll('#bench-0 [data-metric=functions] .legend .key')]"
        + ".map(k => k.textContent)").forEach(k -> legend.add(k.asText()));
    assertTrue(legend.contains(names.get(1)), "a hostile function is a series: " + legend);
    assertTrue(tab.evaluate("document.querySelectorAll('#change-points td.name').length").asInt()
        > 0, "the hostile function's jump is a change point");
    tab.hover("#bench-0 [data-metric=functions] circle");
    tab.screenshot(OUT.resolve("report-nightly-hostile.png"), 1800);
    assertTrue(tab.evaluate(Hostile.NOTHING_RAN).asBoolean(), "a payload ran");
    assertEquals(List.of(), tab.errors(), "no console errors (a CSP violation is one)");
  }

  /**
   * The change points' critical-path column: shown when a change point has a path on both
   * sides (setup 30 % slower from night 10 on), naming setup for the process; absent without.
   */
  @Test
  void changePointsNameTheCriticalFunction() throws Exception {
    for (boolean withPaths : new boolean[] {true, false}) {
      Tab tab = open(write("critical-nightly-" + withPaths,
          CriticalCauseTest.setupSlower(withPaths)));
      JsonNode cells = JSON.readTree(tab.evaluate("JSON.stringify((() => {"
          + " const t = document.querySelector('#change-points table');"
          + " const heads = [...t.querySelectorAll('th')].map(th => th.textContent);"
          + " const col = heads.findIndex(h => h.startsWith('critical path'));"
          + " const rows = [...t.querySelectorAll('tbody tr')].filter(tr =>"
          + " tr.children[3].textContent === '(whole process)' && tr.children[4].textContent"
          + " === 'real time'); return [col, rows.map(tr => col < 0 ? '' : tr.children[col]"
          + ".textContent)]; })())").asText());
      if (!withPaths) {
        assertEquals(-1, cells.get(0).asInt(), cells.toString());
        continue;
      }
      assertTrue(cells.get(0).asInt() > 0, cells.toString());
      assertTrue(cells.get(1).get(0).asText().startsWith("setup +"), cells.toString());
      assertEquals(List.of(), tab.errors(), "no console errors");
    }
  }
}
