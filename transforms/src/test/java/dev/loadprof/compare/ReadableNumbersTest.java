package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.compare.Attribution.Cause;
import dev.loadprof.report.Analysis;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Numbers a reader can trust at a glance (issue 31 item 6), over the recorded fixtures compared
 * every way (5 v 5, 3 v 3, 2 v 5, 4 v 1; cpu, parallelism and interference changes, both
 * directions) and nightly histories of them: no interval of compare.json or compare.txt is
 * below -100 % (or a prediction below 0), the console's and compare.txt's tables fit 100
 * columns, and no change's label names a cause that its own parts contradict.
 */
class ReadableNumbersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern PCT_INTERVAL =
      Pattern.compile("\\[([+-]?[\\d.]+)%, ([+-]?[\\d.]+)%\\]");
  private static final Pattern EXPECTED = Pattern.compile("expected (-?)[\\d.]+\\w+\\.\\.");
  private static final int[][] SIZES = {{5, 5}, {3, 3}, {2, 5}, {4, 1}};
  private static final String[][] PAIRS = {{"base", "cpu"}, {"base", "par"}, {"par", "base"},
      {"cpu", "base"}, {"alone", "neighbour"}, {"neighbour", "alone"}};

  private static Map<String, Comparison> comparisons;

  /** Every comparison of the fixtures above, with a name; made once. */
  static synchronized Map<String, Comparison> comparisons() {
    if (comparisons == null) {
      comparisons = compareAll();
    }
    return comparisons;
  }

  private static Map<String, Comparison> compareAll() {
    Map<String, Comparison> out = new LinkedHashMap<>();
    for (String[] pair : PAIRS) {
      for (int[] size : SIZES) {
        List<String> b = TraceRuns.runs(pair[0], range(1, size[0]));
        List<String> c = TraceRuns.runs(pair[1], range(6 - size[1], 5));
        Map<String, String> ids = new LinkedHashMap<>();
        b.forEach(r -> ids.put(r, r));
        c.forEach(r -> ids.put(r, r));
        Analysis a = TraceRuns.assembled(ids, comm(pair[0]));
        out.put(pair[0] + " " + size[0] + " v " + pair[1] + " " + size[1],
            Compare.compare(a, TraceRuns.sides(b, c), CompareSettings.DEFAULT));
      }
    }
    return out;
  }

  /** Nightly histories of the fixtures, one run a night. */
  static Map<String, Nightly> histories() {
    Map<String, Nightly> out = new LinkedHashMap<>();
    String[][] sequences = {{"base", "cpu"}, {"base", "par"}, {"alone", "neighbour"}};
    for (String[] s : sequences) {
      for (int after : new int[] {1, 5}) {
        List<String> fixtures = new ArrayList<>(TraceRuns.runs(s[0], 1, 2, 3, 4, 5));
        fixtures.addAll(TraceRuns.runs(s[1], range(1, after)));
        Map<String, String> ids = new LinkedHashMap<>();
        for (int i = 0; i < fixtures.size(); i++) {
          ids.put(fixtures.get(i), "bench-" + NightlyFixturesTest.FIRST.plusDays(i) + "-a");
        }
        out.put(s[0] + " then " + after + " " + s[1], NightlyHistory.nightly(
            TraceRuns.assembled(ids, comm(s[0])), NightlySettings.DEFAULT));
      }
    }
    return out;
  }

  @Test
  void noIntervalIsBelowMinusOneHundredPercent() throws Exception {
    int intervals = 0;
    for (Map.Entry<String, Comparison> e : comparisons().entrySet()) {
      ByteArrayOutputStream json = new ByteArrayOutputStream();
      new CompareJson().write(e.getValue(), json);
      JsonNode root = JSON.readTree(json.toByteArray());
      List<JsonNode> rows = new ArrayList<>();
      root.get("changes").forEach(rows::add);
      root.get("processes").forEach(rows::add);
      for (JsonNode r : rows) {
        JsonNode i = r.get("interval");
        if (i.isNull()) {
          continue;
        }
        double floor = i.get("kind").asText().equals("prediction") ? 0 : -100;
        assertTrue(i.get("low").asDouble() >= floor && i.get("high").asDouble() >= floor,
            e.getKey() + ": " + r);
        intervals++;
      }
      String text = new CompareText().render(e.getValue());
      Matcher m = PCT_INTERVAL.matcher(text);
      while (m.find()) {
        assertTrue(Double.parseDouble(m.group(1)) >= -100, e.getKey() + ": " + m.group());
        intervals++;
      }
      Matcher expected = EXPECTED.matcher(text);
      while (expected.find()) {
        assertEquals("", expected.group(1), e.getKey() + ": " + expected.group());
      }
    }
    assertTrue(intervals > 500, intervals + " intervals checked");
  }

  @Test
  void consoleTablesFitOneHundredColumns() {
    List<String> texts = new ArrayList<>();
    comparisons().forEach((name, c) -> {
      texts.add(name + "\n" + tablesOf(new CompareText().render(c)));
      texts.add(name + "\n" + tablesOf(CompareSummary.render(c)));
    });
    histories().forEach((name, n) -> texts.add(name + "\n" + tablesOf(NightlySummary.render(n))));
    int lines = 0;
    for (String t : texts) {
      for (String line : t.split("\n")) {
        assertTrue(line.length() <= ConsoleTable.WIDTH, line.length() + " columns: " + line
            + "\nin " + t);
        lines++;
      }
    }
    assertTrue(lines > 400, lines + " lines checked");
  }

  /** The lines of the tables (and of the rows' details), not the notes' prose. */
  private static String tablesOf(String text) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n")) {
      if (!line.matches("^(note|left out|baseline|candidate|Latest night|Compared|Outputs)\\b.*")
          && !line.matches("^  \\S.*")) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }

  /** Each real-time change's cause agrees with its own parts, as Attribution defines it. */
  @Test
  void noLabelNamesACauseItsFiguresContradict() {
    List<MetricComparison> rows = new ArrayList<>();
    comparisons().values().forEach(c -> rows.addAll(c.changes()));
    histories().values().forEach(n -> rows.addAll(n.changes()));
    int checked = 0;
    for (MetricComparison r : rows) {
      Attribution a = r.attribution();
      if (a == null) {
        continue;
      }
      double cpu = Math.abs(a.cpuPartNs());
      double load = Math.abs(a.parallelismPartNs());
      double change = a.cpuPartNs() + a.parallelismPartNs();
      boolean agrees = switch (a.cause()) {
        case CPU -> cpu >= Attribution.DOMINANCE * load;
        case PARALLELISM -> load >= Attribution.DOMINANCE * cpu;
        case BOTH -> cpu < Attribution.DOMINANCE * load && load < Attribution.DOMINANCE * cpu;
        case INTERFERENCE -> Math.signum(a.interferencePartNs()) == Math.signum(change)
            && Math.abs(a.interferencePartNs()) >= Attribution.INTERFERENCE_SHARE
                * Math.abs(change);
        case MOVED -> Math.signum(a.cpuPartNs()) == Math.signum(change) && r.key().isFunction();
      };
      assertTrue(agrees, r.key().entityName() + ": " + CompareText.cause(a));
      checked++;
    }
    assertTrue(checked > 20, checked + " causes checked");
  }

  /** The fixtures' "moved" function: all CPU, in a process slowed by interference. */
  @Test
  void cpuMovedIntoAFunctionOfAnInterferedProcessIsNotCalledInterference() {
    Comparison c = comparisons().get("alone 5 v neighbour 5");
    MetricComparison vdso = c.row(new SeriesKey("", "steady", "__vdso_clock_gettime",
        Metric.REAL_TIME));
    assertEquals(Cause.MOVED, vdso.attribution().cause(), CompareText.cause(vdso.attribution()));
    assertEquals(0, vdso.attribution().interferencePartNs(), 1e-6, "none of it waiting");
    assertEquals(Verdict.INTERFERENCE, c.verdict(), "the machine, not the code, still");
  }

  private static int[] range(int from, int to) {
    int[] out = new int[to - from + 1];
    for (int i = 0; i < out.length; i++) {
      out[i] = from + i;
    }
    return out;
  }

  private static String comm(String fixture) {
    return fixture.equals("alone") || fixture.equals("neighbour") ? "^steady$" : "^mixed$";
  }

}
