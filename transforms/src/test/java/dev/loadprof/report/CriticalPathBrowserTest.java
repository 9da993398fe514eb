package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.critical.CriticalPath;
import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.browser.Chromium;
import dev.loadprof.report.browser.Tab;
import dev.loadprof.wall.StateTimeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * report.html's critical path (issue 33) in a real headless Chromium, on the stalls fixture
 * (system-wide, stacks, wake-ups): the path drawn over the thread-state lanes on the lanes of
 * its threads with its wake-up hops, its flame graph with its top function, and the what-if
 * table; and the one line of a report without a path. Screenshots go to target/browser/.
 */
class CriticalPathBrowserTest {
  private static final Path STALLS = Path.of("src", "test", "resources", "traces",
      "stalls.txt.gz");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Chromium browser;
  private static int pid;

  @BeforeAll
  static void start() throws Exception {
    browser = Chromium.launchOrSkip("report.html");
    String window = Files.readAllLines(Path.of("src", "test", "resources", "traces",
        "stalls.windows")).get(0);
    pid = Integer.parseInt(window.split("\\s+")[1]);
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  private static Analysis stalls() throws IOException {
    return AnalyzeReportBrowserTest.analyze(List.of(STALLS), new Filters(Set.of(pid), null,
        null));
  }

  private static Tab open(Analysis a, String name) throws Exception {
    Path report = AnalyzeReportBrowserTest.write(a, AnalyzeReportBrowserTest.OUT.resolve(name));
    Tab tab = browser.newTab(1400, 1000);
    tab.open(report);
    return tab;
  }

  /**
   * A path over the process's span through three of its lanes: the main thread runs, a worker
   * runs, a third thread waits for a CPU another process held, the main thread sleeps (timer)
   * and runs to the end: 3 hops.
   */
  static CriticalPath handMade(ProcessLoad p) {
    StateTimeline t = p.stateTimeline;
    int main = pid;
    List<Integer> others = new ArrayList<>();
    t.lanes.forEach(l -> {
      if (l.tid() != main) {
        others.add(l.tid());
      }
    });
    long s = p.spanStartNs;
    long e = p.spanEndNs;
    long step = (e - s) / 10;
    List<PathSegment> segments = List.of(
        new PathSegment(main, s, s + 3 * step, Kind.RUNNING, ""),
        new PathSegment(others.get(0), s + 3 * step, s + 6 * step, Kind.RUNNING, ""),
        new PathSegment(others.get(1), s + 6 * step, s + 7 * step, Kind.RUNNABLE_OTHER,
            "process cpuhog"),
        new PathSegment(main, s + 7 * step, s + 8 * step, Kind.BLOCKED, "timer"),
        new PathSegment(main, s + 8 * step, e, Kind.RUNNING, ""));
    CallStack make = new CallStack(new Frame[] {new Frame("make_item", "stalls"),
        new Frame("main", "stalls")});
    CallStack busy = new CallStack(new Frame[] {new Frame("busy_item", "stalls"),
        new Frame("start_thread", "libc.so.6")});
    long mainRun = 3 * step + (e - s - 8 * step);
    return new CriticalPath(s, e, segments,
        List.of(new CriticalPath.FunctionOnPath("make_item", mainRun, 0.5, mainRun)),
        List.of(new CriticalPath.ThreadShare(main, "stalls", mainRun + step)),
        Map.of("timer", step), mainRun + 3 * step, 0, step,
        List.of(new CriticalPath.WhatIf("make_item", 10, e - s - mainRun / 10, -mainRun / 10),
            new CriticalPath.WhatIf("make_item", 25, e - s - mainRun / 4, -mainRun / 4),
            new CriticalPath.WhatIf("make_item", 50, e - s - mainRun / 2, -mainRun / 2),
            new CriticalPath.WhatIf("busy_item", 10, e - s - step / 10, -step / 10),
            new CriticalPath.WhatIf("busy_item", 25, e - s - step / 4, -step / 4),
            new CriticalPath.WhatIf("busy_item", 50, e - s - step / 2, -step / 2)),
        Map.of(), List.of(new CriticalPath.StackOnPath(main, make, mainRun),
            new CriticalPath.StackOnPath(others.get(0), busy, 3 * step)),
        List.of(new CriticalPath.WaitOnPath(main, Kind.BLOCKED, "timer", new CallStack(new Frame[] {
            new Frame("do_nanosleep", "[kernel.kallsyms]")}), step),
            new CriticalPath.WaitOnPath(others.get(1), Kind.RUNNABLE_OTHER, "process cpuhog",
                new CallStack(new Frame[0]), step)),
        List.of());
  }

  /** JS: for every path line, whether the lane its y falls in is the lane of its tid. */
  private static final String ON_THEIR_LANES = "(() => { const lanes = [...document.querySelectorAll("
      + "'#thread-states g.lane')].map(g => { const r = g.querySelector('rect'); return { tid: g.dataset.tid,"
      + " top: +r.getAttribute('y'), h: +r.getAttribute('height') }; });"
      + " const segs = [...document.querySelectorAll('#thread-states .cp-seg')];"
      + " const wrong = segs.filter(s => { const y = +s.getAttribute('y1');"
      + " const l = lanes.find(l => y >= l.top && y <= l.top + l.h); return !l || l.tid !== s.dataset.tid; });"
      + " return JSON.stringify({ segs: segs.length, wrong: wrong.length,"
      + " tids: segs.map(s => +s.dataset.tid), kinds: segs.map(s => s.dataset.kind),"
      + " hops: [...document.querySelectorAll('#thread-states .cp-hop')].map(h => [+h.dataset.from,"
      + " +h.dataset.to]) }); })()";

  @Test
  void thePathIsDrawnOnItsThreadsLanesWithItsFlameGraphAndWhatIfs() throws Exception {
    Analysis a = stalls();
    ProcessLoad p = a.processes().get(0);
    CriticalPath path = handMade(p);
    p.criticalPath = path;
    Tab tab = open(a, "critical");
    JsonNode drawn = JSON.readTree(
        tab.evaluate(ON_THEIR_LANES).asText());
    assertEquals(5, drawn.get("segs").asInt(), drawn.toString());
    assertEquals(0, drawn.get("wrong").asInt(), "every line on its thread's lane: " + drawn);
    List<Integer> tids = new ArrayList<>();
    drawn.get("tids").forEach(n -> tids.add(n.asInt()));
    assertEquals(path.segments().stream().map(PathSegment::tid).toList(), tids);
    assertEquals("[\"running\",\"running\",\"runnable_other\",\"blocked\",\"running\"]",
        drawn.get("kinds").toString());
    int w1 = path.segments().get(1).tid();
    int w2 = path.segments().get(2).tid();
    assertEquals("[[" + pid + "," + w1 + "],[" + w1 + "," + w2 + "],[" + w2 + "," + pid + "]]",
        drawn.get("hops").toString(), "a hop at each change of thread");
    // The lines start where their segments start, on the lanes' time axis.
    assertTrue(tab.evaluate("(() => { const s = [...document.querySelectorAll('#thread-states"
        + " .cp-seg')]; return +s[1].getAttribute('x1') > +s[0].getAttribute('x1')"
        + " && Math.abs(+s[1].getAttribute('x1') - +s[0].getAttribute('x2')) < 0.01; })()")
        .asBoolean());
    String legend = tab.evaluate("document.getElementById('critical-legend').textContent")
        .asText();
    assertTrue(legend.contains("3 wake-up hops"), legend);

    // The flame graph of the path: its top function, and the waits under their names.
    assertTrue(tab.evaluate("!!document.querySelector('#critical g.frame[data-name=make_item]')")
        .asBoolean(), "the top function");
    assertTrue(tab.evaluate("!!document.querySelector('#critical g.frame[data-name=\"[blocked:"
        + " timer]\"]')").asBoolean(), "a wait");
    // The what-if table: one row per function, the largest gain first, in one unit.
    JsonNode rows = JSON.readTree(tab.evaluate(
        "JSON.stringify([...document.querySelectorAll('#what-if tbody tr')].map(tr =>"
        + " [...tr.children].map(td => td.textContent)))").asText());
    assertEquals(2, rows.size(), rows.toString());
    assertEquals("make_item", rows.get(0).get(0).asText());
    assertEquals("busy_item", rows.get(1).get(0).asText());
    assertEquals(4, rows.get(0).size(), "function, 10 %, 25 %, 50 %");
    String cell = rows.get(0).get(2).asText();
    assertTrue(cell.matches("−[0-9.]+ (s|ms) \\(−[0-9.]+%\\)"), cell);
    String unit = cell.replaceAll(".* (s|ms) .*", "$1");
    rows.forEach(r -> {
      for (int i = 1; i < r.size(); i++) {
        assertTrue(r.get(i).asText().contains(" " + unit + " ("), "one unit: " + r);
      }
    });
    assertTrue(tab.evaluate("document.getElementById('critical-model').textContent").asText()
        .contains(CriticalPath.MODEL_LIMITS));
    tab.screenshot(AnalyzeReportBrowserTest.OUT.resolve("report-critical.png"), 3000);
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  /**
   * The path the analysis computes for stalls (its main thread, pipe writer, queue and busy
   * threads, linked by wake-ups): every line on its thread's lane (or counted as off the lanes),
   * a hop wherever consecutive lines change lane, the flame graph with the path's top function,
   * one what-if row per function predicted.
   */
  @Test
  void theComputedPathOfStalls() throws Exception {
    Analysis a = stalls();
    ProcessLoad p = a.processes().get(0);
    CriticalPath path = p.criticalPath;
    assertTrue(path != null && !path.segments().isEmpty(), "stalls has a path");
    Tab tab = open(a, "critical-stalls");
    JsonNode drawn = JSON.readTree(tab.evaluate(ON_THEIR_LANES).asText());
    assertTrue(drawn.get("segs").asInt() > 0, drawn.toString());
    assertEquals(0, drawn.get("wrong").asInt(), "every line on its thread's lane: " + drawn);
    JsonNode tids = drawn.get("tids");
    int changes = 0;
    for (int i = 1; i < tids.size(); i++) {
      changes += tids.get(i).asInt() != tids.get(i - 1).asInt() ? 1 : 0;
    }
    assertTrue(changes <= drawn.get("hops").size(), "a hop at every change of lane: " + drawn);
    assertTrue(changes > 0, "the path of stalls moves between threads: " + drawn);
    String top = path.topFunctions().get(0).function();
    assertTrue(tab.evaluate("[...document.querySelectorAll('#critical g.frame')].some(g =>"
        + " g.dataset.name === " + JSON.writeValueAsString(top) + ")").asBoolean(),
        "the path's top function " + top + " in its flame graph");
    long functions = path.whatIfs().stream().map(CriticalPath.WhatIf::function).distinct()
        .count();
    assertEquals(functions, tab.evaluate("document.querySelectorAll('#what-if tbody tr').length")
        .asLong());
    tab.screenshot(AnalyzeReportBrowserTest.OUT.resolve("report-critical-stalls.png"), 3000);
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  /** A process without a path (here: none computed): one line, no overlay, no empty table. */
  @Test
  void withoutAPathOneLineSaysWhy() throws Exception {
    Analysis a = stalls();
    a.processes().forEach(p -> p.criticalPath = null);
    Tab tab = open(a, "no-critical");
    String line = tab.evaluate("document.getElementById('no-critical').textContent").asText();
    assertTrue(line.startsWith("No critical path"), line);
    assertFalse(tab.evaluate("!!document.querySelector('.cp-seg, #what-if, #critical .flame')")
        .asBoolean());
    assertTrue(tab.evaluate("!!document.querySelector('#thread-states g.lane')").asBoolean(),
        "the lanes are still drawn");
    assertEquals(List.of(), tab.errors(), "no console errors");
  }
}
