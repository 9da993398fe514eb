package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.browser.Chromium;
import dev.loadprof.report.browser.Tab;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * report.html's flame graph as issue 34 asks, in a real headless Chromium: a run of 120
 * "[unknown]" frames is one frame that says how many; a regex search says the share it matched;
 * the callers view of a function opens with its callers and callees; keys and Ctrl+wheel zoom;
 * the zoomed view is in the URL and a reload shows it again. Screenshots in target/browser/.
 */
class FlameViewsBrowserTest {
  private static final Path OUT = AnalyzeReportBrowserTest.OUT.resolve("flame-views");
  private static Chromium browser;
  private static Path report;

  @BeforeAll
  static void start() throws Exception {
    browser = Chromium.launchOrSkip("report.html");
    report = AnalyzeReportBrowserTest.write(analysis(), OUT);
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  /**
   * One process: serial code (3 s), a helper called from two places (1 s + 0.5 s), and a worker
   * under 120 unresolved frames from thread start (2 s at load 2).
   */
  private static Analysis analysis() {
    String[] worker = new String[122];
    worker[0] = "work_loop@/bin/app";
    worker[1] = "worker@/bin/app";
    for (int i = 2; i < worker.length; i++) {
      worker[i] = "[unknown]@[unknown]";
    }
    List<StackWeight> stacks = new ArrayList<>(List.of(
        Fixtures.stack("r", 9, 1, 3000, "serial_setup@/bin/app", "main@/bin/app"),
        Fixtures.stack("r", 9, 1, 1000, "helper@/bin/app", "parse@/bin/app", "main@/bin/app"),
        Fixtures.stack("r", 9, 1, 500, "helper@/bin/app", "serial_tail@/bin/app",
            "main@/bin/app"),
        Fixtures.stack("r", 9, 2, 4000, worker)));
    RunInfo run = Fixtures.run("r", 0, 7_000 * Fixtures.MS);
    return new Analysis(List.of(run),
        List.of(Fixtures.process("r", 9, "app", stacks, 0, 4500, 2000)), stacks, LoadRange.ALL);
  }

  private static Tab open() throws Exception {
    Tab tab = browser.newTab(1280, 1000);
    tab.open(report);
    return tab;
  }

  private static List<String> frameNames(Tab tab) throws IOException {
    List<String> names = new ArrayList<>();
    tab.evaluate("[...document.querySelectorAll('#flame g.frame')].map(g => g.dataset.name)")
        .forEach(n -> names.add(n.asText()));
    return names;
  }

  @Test
  void aRunOfUnknownFramesIsOneFrame() throws Exception {
    Tab tab = open();
    List<String> names = frameNames(tab);
    assertTrue(names.contains("[unknown×120]"), names.toString());
    assertFalse(names.contains("[unknown]"), names.toString());
    // The worker is drawn right under it: depth 2 (all, [unknown×120], worker).
    assertEquals(2, tab.evaluate("+document.querySelector('#flame g.frame[data-name=worker]')"
        + ".dataset.depth").asInt());
    tab.screenshotOf("#flame", OUT.resolve("unknown-run.png"));
    assertEquals(List.of(), tab.errors());
  }

  @Test
  void aRegexSearchSaysTheShareItMatched() throws Exception {
    Tab tab = open();
    // serial_setup 3 s and serial_tail 0.5 s of 6.5 s real time (the worker's 4 s CPU at load 2).
    tab.type("#flame input[type=search]", "^serial_(setup|tail)$");
    List<String> matched = new ArrayList<>();
    tab.evaluate("[...document.querySelectorAll('#flame g.frame.match')].map(g => g.dataset.name)")
        .forEach(n -> matched.add(n.asText()));
    assertEquals(List.of("serial_setup", "serial_tail"), matched.stream().sorted().toList());
    String status = tab.evaluate("document.querySelector('#flame .controls .note').textContent")
        .asText();
    assertTrue(status.startsWith("matched 53.85% of the real time shown (2 frames)"), status);
    // Text that is no regex is searched as text.
    tab.evaluate("(() => { const s = document.querySelector('#flame input[type=search]');"
        + " s.value = ''; s.dispatchEvent(new Event('input')); })()");
    tab.type("#flame input[type=search]", "unknown×1");
    status = tab.evaluate("document.querySelector('#flame .controls .note').textContent")
        .asText();
    assertTrue(status.startsWith("matched 30.77% of the real time shown (1 frame)"), status);
    tab.screenshotOf("#flame", OUT.resolve("regex-search.png"));
    assertEquals(List.of(), tab.errors());
  }

  @Test
  void theCallersViewShowsWhoCallsAFunctionAndWhatItCalls() throws Exception {
    Tab tab = open();
    assertTrue(tab.evaluate("document.querySelector('#flame button.callers').disabled")
        .asBoolean(), "no function zoomed yet");
    tab.click("#flame g.frame[data-name=helper]");
    tab.click("#flame button.callers");
    JsonNode titles = tab.evaluate("[...document.querySelectorAll('#flame .sandwich h3')]"
        + ".map(h => h.textContent)");
    assertEquals("Callers of helper", titles.get(0).asText());
    assertEquals("Callees of helper", titles.get(1).asText());
    // Callers: helper on top (1.5 s), parse and serial_tail below it, main below both.
    JsonNode callers = tab.evaluate("[...document.querySelectorAll('#flame .sandwich-part')[0]"
        + ".querySelectorAll('g.frame')].map(g => g.dataset.depth + ' ' + g.dataset.name)");
    List<String> rows = new ArrayList<>();
    callers.forEach(c -> rows.add(c.asText()));
    assertEquals(List.of("0 helper", "1 parse", "2 main", "1 serial_tail", "2 main"), rows);
    String tip = "(() => { const g = document.querySelectorAll('#flame .sandwich-part')[0]"
        + ".querySelector('g.frame[data-name=helper]'); return g.getBoundingClientRect().width"
        + " / g.closest('svg').getBoundingClientRect().width; })()";
    assertEquals(1.0, tab.evaluate(tip).asDouble(), 0.01);
    tab.screenshotOf("#flame", OUT.resolve("callers.png"));
    assertEquals(List.of(), tab.errors());
  }

  @Test
  void keysAndTheWheelZoomAndTheUrlKeepsTheView() throws Exception {
    Tab tab = open();
    String zoomed = "document.querySelector('#flame .crumbs').textContent";
    String key = "(k => document.querySelector('#flame .flame').dispatchEvent(new KeyboardEvent("
        + "'keydown', {key: k, bubbles: true})))";
    tab.evaluate(key + "('+')"); // the widest child: main (4.5 s; the worker's run 2 s)
    assertEquals("all › main", tab.evaluate(zoomed).asText());
    tab.evaluate(key + "('Escape')");
    assertEquals("all", tab.evaluate(zoomed).asText());
    // Ctrl+wheel up over serial_setup zooms one level toward it: main.
    String wheel = "(dy => document.querySelector('#flame g.frame[data-name=serial_setup] rect')"
        + ".dispatchEvent(new WheelEvent('wheel', {deltaY: dy, ctrlKey: true, bubbles: true,"
        + " cancelable: true})))";
    tab.evaluate(wheel + "(-100)");
    assertEquals("all › main", tab.evaluate(zoomed).asText());
    tab.evaluate(wheel + "(-100)");
    assertEquals("all › main › serial_setup", tab.evaluate(zoomed).asText());
    String hash = tab.evaluate("decodeURIComponent(location.hash)").asText();
    assertTrue(hash.contains("flame=[\"main\",\"serial_setup\"]"), hash);
    // A reload (or the link) shows the same view.
    tab.reload();
    assertEquals("all › main › serial_setup", tab.evaluate(zoomed).asText());
    tab.evaluate(key + "('-')");
    assertEquals("all › main", tab.evaluate(zoomed).asText());
    assertEquals(List.of(), tab.errors());
  }
}
