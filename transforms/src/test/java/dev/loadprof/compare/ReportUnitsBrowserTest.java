package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.browser.Chromium;
import dev.loadprof.report.browser.Tab;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every figure of compare.html and nightly.html carries its unit, in a real headless Chromium:
 * times (also the thread-state figures wall time and cpu wait, once printed as raw ns) as
 * durations, shares in %, loads (threads on CPUs, no unit) to 2 places; no change interval
 * reaches below -100 %; and nightly's badge says when the latest night is unchanged but the
 * level is still changed against the nights before the last change point.
 */
class ReportUnitsBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DURATION = Pattern.compile("[−-]?\\d+\\.\\d+ (s|ms|µs)");
  private static final Pattern SHARE = Pattern.compile("\\d+\\.\\d+%");
  private static final Pattern LOAD = Pattern.compile("\\d+\\.\\d\\d");
  /** The interval in a significance cell: "change -35.7% … -30.0%" or "shift ...". */
  private static final Pattern INTERVAL =
      Pattern.compile("(?:change|shift) ([+−-]?[\\d.]+)% … ([+−-]?[\\d.]+)%");
  private static Chromium browser;

  @BeforeAll
  static void start() throws Exception {
    browser = Chromium.launchOrSkip("compare.html and nightly.html");
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  /** The steady fixtures, benchmark process only, under the given run ids. */
  private static Analysis steady(Map<String, String> runIdByFixture) {
    return TraceRuns.assembled(runIdByFixture, "^steady$");
  }

  /** Alone against beside a busy neighbour: thread-state figures changed (wall, cpu wait). */
  @Test
  void compareFiguresCarryTheirUnits() throws Exception {
    Map<String, String> ids = new LinkedHashMap<>();
    List<String> baseline = runs("alone", 1, 2, 3, 4, 5);
    List<String> candidate = runs("neighbour", 1, 2, 3, 4, 5);
    baseline.forEach(r -> ids.put(r, r));
    candidate.forEach(r -> ids.put(r, r));
    Analysis a = steady(ids);
    Comparison c = Compare.compare(a, TraceRuns.sides(baseline, candidate),
        CompareSettings.DEFAULT);
    Path dir = CompareReportBrowserTest.write("compare-units", a, c);
    JsonNode json = JSON.readTree(dir.resolve(CompareJson.FILE_NAME).toFile());
    Tab tab = browser.newTab(1280, 1000);
    tab.open(dir.resolve(CompareReport.FILE_NAME));
    List<String> metrics = new ArrayList<>();
    int cells = assertUnits(tab, "#changes", json.get("changes"), metrics)
        + assertUnits(tab, "#process-figures", json.get("processes"), metrics);
    assertTrue(metrics.containsAll(List.of("wall_time", "cpu_wait", "avg_load",
        "serial_fraction")), "the figures checked: " + metrics);
    assertTrue(cells > 50, cells + " cells checked");
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  /**
   * Five nights alone, then five beside the neighbour (a change point of the real time), then
   * the latest night like them: "no change" tonight, the level still changed.
   */
  @Test
  void nightlyFiguresCarryTheirUnitsAndTheBadgeSaysTheLevelIsStillChanged() throws Exception {
    Map<String, String> ids = new LinkedHashMap<>();
    List<String> fixtures = new ArrayList<>(runs("alone", 1, 2, 3, 4, 5));
    fixtures.addAll(runs("neighbour", 1, 2, 3, 4, 5));
    for (int i = 0; i < fixtures.size(); i++) {
      ids.put(fixtures.get(i), "steady-" + NightlyFixturesTest.FIRST.plusDays(i) + "-a");
    }
    Nightly n = NightlyHistory.nightly(steady(ids), NightlySettings.DEFAULT);
    Path dir = NightlyReportBrowserTest.write("nightly-units", n);
    JsonNode json = JSON.readTree(dir.resolve(NightlyJson.FILE_NAME).toFile());
    assertEquals("no change", json.get("verdict").asText(), json.toString());
    assertTrue(json.get("still_changed").size() > 0, json.toString());
    Tab tab = browser.newTab(1280, 1000);
    tab.open(dir.resolve(NightlyReport.FILE_NAME));
    String badge = tab.evaluate("document.getElementById('verdict').textContent").asText();
    JsonNode still = json.get("still_changed").get(0);
    assertTrue(badge.contains("still changed") && badge.contains("since "
        + still.get("night").asText()), badge);
    assertTrue(tab.evaluate("document.getElementById('verdict').classList"
        + ".contains('still-changed')").asBoolean(), "not the grey no-change badge");
    List<String> metrics = new ArrayList<>();
    JsonNode rows = CompareReportBrowserTest.cells(tab, "#change-points");
    for (int i = 0; i < rows.size(); i++) {
      String unit = json.get("change_points").get(i).get("unit").asText();
      for (String column : List.of("before", "after")) {
        assertUnit(unit, rows.get(i).get(column).asText());
      }
      metrics.add(json.get("change_points").get(i).get("metric").asText());
    }
    assertTrue(rows.size() > 0, "change points shown");
    assertUnits(tab, "#changes", json.get("changes"), metrics);
    // One unit per axis (issue 34): a time axis read "750.00 ms" under "1.000 s".
    JsonNode axes = tab.evaluate("[...document.querySelectorAll('svg.trend')].map(s =>"
        + " [...s.querySelectorAll('g.axis text[text-anchor=end]')].map(t => t.textContent)"
        + ".filter(t => t !== '0'))");
    int timeAxes = 0;
    for (JsonNode axis : axes) {
      java.util.Set<String> units = new java.util.TreeSet<>();
      axis.forEach(t -> {
        Matcher m = DURATION.matcher(t.asText());
        if (m.matches()) {
          units.add(m.group(1));
        }
      });
      assertTrue(units.size() <= 1, "one unit on an axis: " + axis);
      timeAxes += units.size();
    }
    assertTrue(timeAxes > 0, "time axes checked: " + axes);
    // An axis up to 1 s: its 0.75 s tick in seconds too, not "750.00 ms" (as nightly.html had).
    JsonNode ticks = tab.evaluate("[...Charts.trend('t', ['2026-01-01', '2026-01-02'], [{id: 'x',"
        + " label: 'x', points: [['2026-01-01', 9e8, 1], ['2026-01-02', 1e9, 1]]}], [], LP.seconds)"
        + ".querySelectorAll('g.axis text[text-anchor=end]')].map(t => t.textContent)");
    assertEquals("[\"0\",\"0.250 s\",\"0.500 s\",\"0.750 s\",\"1.000 s\"]", ticks.toString());
    assertEquals(List.of(), tab.errors(), "no console errors");
  }

  /**
   * Each row's baseline and candidate in the unit of its figure, the interval of its
   * significance not below -100 %, and its cause's parts as durations; the cells checked.
   */
  private static int assertUnits(Tab tab, String table, JsonNode expected, List<String> metrics)
      throws IOException {
    JsonNode rows = CompareReportBrowserTest.cells(tab, table);
    assertEquals(expected.size(), rows.size(), table);
    int checked = 0;
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      String unit = expected.get(i).get("unit").asText();
      metrics.add(expected.get(i).get("metric").asText());
      for (String column : List.of("baseline", "candidate")) {
        assertUnit(unit, row.get(column).asText());
        checked++;
      }
      Matcher m = INTERVAL.matcher(row.get("significance").asText());
      if (m.find()) {
        assertTrue(number(m.group(1)) >= -100 && number(m.group(2)) >= -100,
            row.get("significance").asText());
      }
      String cause = row.get("cause").asText();
      if (!cause.equals("-")) {
        assertTrue(Pattern.compile("CPU [+−±]" + DURATION.pattern() + ", parallelism [+−±]"
            + DURATION.pattern()).matcher(cause).find(), cause);
      }
    }
    return checked;
  }

  private static void assertUnit(String unit, String shown) {
    Pattern p = switch (unit) {
      case "ns" -> DURATION;
      case "fraction" -> SHARE;
      case "load" -> LOAD;
      default -> throw new AssertionError("unknown unit " + unit);
    };
    assertTrue(p.matcher(shown).matches(), "a figure in " + unit + " shown as \"" + shown + "\"");
  }

  private static double number(String s) {
    return Double.parseDouble(s.replace('−', '-'));
  }
}
