package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.browser.Chromium;
import dev.loadprof.report.browser.Tab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole-wall views of report.html in a real headless Chromium, on the stalls fixture
 * (system-wide, stacks, wakeups): the thread-state lanes under the load timeline on its time
 * axis, the off-CPU flame graph beside the real-time one, and the one line that replaces both
 * when a run has no thread states. Screenshots go to target/browser/. Skipped, saying so, when
 * no Chromium is installed.
 */
class WallReportBrowserTest {
  private static final Path STALLS = Path.of("src", "test", "resources", "traces",
      "stalls.txt.gz");
  private static Chromium browser;
  private static Path stallsReport;
  private static int pid;

  @BeforeAll
  static void start() throws Exception {
    browser = Chromium.launchOrSkip("report.html");
    String window = Files.readAllLines(Path.of("src", "test", "resources", "traces",
        "stalls.windows")).get(0);
    pid = Integer.parseInt(window.split("\\s+")[1]);
    Analysis a = AnalyzeReportBrowserTest.analyze(List.of(STALLS),
        new Filters(Set.of(pid), null, null));
    stallsReport = AnalyzeReportBrowserTest.write(a,
        AnalyzeReportBrowserTest.OUT.resolve("stalls"));
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  private static Tab openStalls() throws Exception {
    Tab tab = browser.newTab(1400, 1000);
    tab.open(stallsReport);
    return tab;
  }

  @Test
  void theLanesAndTheOffCpuFlameGraphRender() throws Exception {
    Tab tab = openStalls();
    JsonNode wall = tab.evaluate("LP.data().processes[0].wall");
    int lanes = wall.get("lanes").get("lanes").size();
    assertTrue(lanes >= 5, "stalls has a main thread, a pipe writer, a queue and busy threads");
    assertEquals(lanes, tab.evaluate("document.querySelectorAll('#thread-states g.lane').length")
        .asInt());
    assertEquals(pid, tab.evaluate("+document.querySelector('#thread-states g.lane')"
        + ".dataset.tid").asInt(), "lanes by tid: the main thread first");
    for (String state : List.of("running", "runnable", "sleeping", "disk")) {
      assertTrue(tab.evaluate("!!document.querySelector('#thread-states rect.seg[data-state="
          + state + "]')").asBoolean(), "a " + state + " segment");
      assertTrue(tab.evaluate("!!document.querySelector('#thread-states .state-legend"
          + " [data-state=" + state + "]')").asBoolean(), state + " in the legend");
    }
    assertTrue(tab.evaluate("document.querySelector('#thread-states .wall-line').textContent")
        .asText().startsWith("wall "));
    // The lanes are drawn on the load timeline's axis: same width, same place.
    assertEquals("true", tab.evaluate("(() => { const a = document.querySelector('#timeline"
        + " svg.timeline').getBoundingClientRect(); const b = document.querySelector("
        + "'#thread-states svg.state-lanes').getBoundingClientRect();"
        + " return String(Math.abs(a.left - b.left) < 0.5 && Math.abs(a.width - b.width) < 0.5);"
        + " })()").asText());
    tab.hover("#thread-states rect.seg[data-state=disk]");
    String tip = tab.evaluate("document.getElementById('lp-tip').innerText").asText();
    assertTrue(tip.contains("disk") && (tip.contains("tid ") || tip.contains("(main)")), tip);
    // Lanes named by thread and top function (issue 34): "stalls (main) · make_item".
    String mainLane = tab.evaluate("document.querySelector('#thread-states g.lane text')"
        + ".textContent").asText();
    assertTrue(mainLane.startsWith("stalls (main) · "), mainLane);
    // One unit per tooltip: the thread's time per state all in ms or all in s.
    String perState = tip.substring(tip.indexOf("the thread over the axis"));
    assertTrue(!perState.contains(" ms") || !perState.matches("(?s).*\\d s\\b.*"), perState);

    // Off CPU: the states as leaves, the waits' functions under them; zoom works as on the left.
    for (String state : List.of("sleeping", "disk", "runnable")) {
      assertTrue(tab.evaluate("!!document.querySelector('#offcpu-flame g.frame[data-state="
          + state + "]')").asBoolean(), state + " leaf");
    }
    assertTrue(tab.evaluate("[...document.querySelectorAll('#offcpu-flame g.frame')]"
        + ".some(g => /nanosleep/.test(g.dataset.name))").asBoolean());
    tab.click("#offcpu-flame g.frame[data-name=ext4_sync_file]");
    assertTrue(tab.evaluate("document.querySelector('#offcpu-flame .crumbs').textContent")
        .asText().endsWith("ext4_sync_file"));
    assertTrue(tab.evaluate("!!document.querySelector('#flame g.frame[data-name=busy_item]')")
        .asBoolean(), "the real-time flame graph still beside it");
    tab.screenshot(AnalyzeReportBrowserTest.OUT.resolve("report-wall.png"), 2400);
    assertEquals(List.of(), tab.errors(), "no console errors");
    // The README's picture (docs/report-wall.png): header, timeline with lanes, both flame graphs.
    tab.click("#offcpu-flame button");
    tab.evaluate("document.querySelectorAll('#process-view > .row:not(.flames), #functions')"
        + ".forEach(e => { e.style.display = 'none'; })");
    tab.screenshotOf("#process-view", AnalyzeReportBrowserTest.OUT.resolve(
        "report-wall-readme.png"));
  }

  /** An old archive (no thread states): one line, no empty lanes or flame graph. */
  @Test
  void aRunWithoutThreadStatesSaysSoInOneLine() throws Exception {
    Analysis a = AnalyzeReportBrowserTest.analyze(List.of(STALLS),
        new Filters(Set.of(pid), null, null));
    for (ProcessLoad p : a.processes()) {
      p.threadStates.hasStates = false;
      p.threadStates.hasStacks = false;
    }
    Path report = AnalyzeReportBrowserTest.write(a,
        AnalyzeReportBrowserTest.OUT.resolve("no-states"));
    Tab tab = browser.newTab(1280, 1000);
    tab.open(report);
    String line = tab.evaluate("document.getElementById('no-offcpu').textContent").asText();
    assertTrue(line.startsWith("No off-CPU detail in run "), line);
    assertFalse(tab.evaluate("!!document.querySelector('svg.state-lanes, #offcpu-flame')")
        .asBoolean(), "no empty chart");
    assertTrue(tab.evaluate("!!document.querySelector('#flame g.frame')").asBoolean());
    assertEquals(List.of(), tab.errors(), "no console errors");
  }
}
