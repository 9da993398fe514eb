package dev.loadprof.compare;

import static dev.loadprof.compare.TraceRuns.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.GoPprof;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare's files for base-1..5 against cpu-1..5 (benchmark process only). */
class CompareOutputsTest {
  @TempDir Path dir;

  private Comparison writeAll() throws IOException {
    List<String> b = runs("base", 1, 2, 3, 4, 5);
    List<String> c = runs("cpu", 1, 2, 3, 4, 5);
    List<String> all = new ArrayList<>(b);
    all.addAll(c);
    Analysis a = TraceRuns.mixed(all);
    Comparison cmp = Compare.compare(a, TraceRuns.sides(b, c), CompareSettings.DEFAULT);
    CompareOutputs.writeAll(a, cmp, CompareReportBrowserTest.files(dir));
    return cmp;
  }

  @Test
  void jsonHasTheVerdictAndChangesWithCause() throws IOException {
    Comparison cmp = writeAll();
    JsonNode root = new ObjectMapper().readTree(dir.resolve(CompareJson.FILE_NAME).toFile());
    assertEquals("regression", root.get("verdict").asText());
    assertEquals(3, root.get("exit_code").asInt());
    JsonNode first = root.get("changes").get(0);
    assertEquals("mixed", first.get("process").asText());
    assertEquals("serial_section", first.get("function").asText());
    assertEquals("real_time", first.get("metric").asText());
    assertEquals("regression", first.get("kind").asText());
    assertEquals("cpu", first.get("cause").asText());
    assertEquals(first.get("candidate").asDouble() - first.get("baseline").asDouble(),
        first.get("cpu_part_ns").asDouble() + first.get("parallelism_part_ns").asDouble(), 2);
    assertTrue(first.get("p_value").isNumber());
    assertTrue(first.get("delta_pct").asDouble() > 40);
    assertEquals(cmp.changes().size(), root.get("changes").size());
    for (JsonNode ch : root.get("changes")) {
      if (!ch.has("function")) {
        assertFalse(ch.has("function"), "process metrics have no function key");
      }
      if (!ch.get("metric").asText().equals("real_time")) {
        assertFalse(ch.has("cause"), "only real-time changes have a cause");
      }
    }
  }

  @Test
  void textPutsRegressionsFirst() throws IOException {
    writeAll();
    String text = Files.readString(dir.resolve(CompareText.FILE_NAME));
    assertTrue(text.contains("verdict: regression"), text);
    String[] rows = text.split("\nchanges\n")[1].split("\n");
    assertTrue(rows[1].startsWith("mixed serial_section") && rows[1].endsWith("regression"),
        rows[1]);
    assertTrue(rows[2].startsWith("    interval [+") && rows[2].contains("; cause cpu: cpu +"),
        "the interval and the cause on the line below: " + rows[2]);
  }

  @Test
  void foldedDiffHasBothSidesPerRun() throws IOException {
    Comparison cmp = writeAll();
    double serialB = 0;
    double serialC = 0;
    for (String line : Files.readAllLines(dir.resolve(SideProfiles.DIFF_FILE))) {
      String[] parts = line.split(" ");
      assertEquals(3, parts.length, line);
      if (parts[0].endsWith(";serial_section")) {
        serialB += Long.parseLong(parts[1]);
        serialC += Long.parseLong(parts[2]);
      }
    }
    MetricComparison serial = cmp.row(new SeriesKey("", "mixed", "serial_section",
        Metric.REAL_TIME));
    // Per-run means, not medians: close to the medians on these tight runs.
    assertEquals(serial.baseline(), serialB, 0.02 * serial.baseline());
    assertEquals(serial.candidate(), serialC, 0.02 * serial.candidate());
  }

  /** The README's recipe: go tool pprof -diff_base=baseline.pb.gz candidate.pb.gz. */
  @Test
  void pprofDiffShowsTheSerialSectionGrowth() throws Exception {
    Comparison cmp = writeAll();
    GoPprof pprof = GoPprof.inDir(dir);
    String top = pprof.run("-top", "-unit=ms", "-diff_base=" + SideProfiles.BASELINE_FILE,
        SideProfiles.CANDIDATE_FILE);
    Map<String, String[]> rows = GoPprof.topRows(top);
    double flatMs = Double.parseDouble(rows.get("serial_section")[0].replace("ms", ""));
    MetricComparison serial = cmp.row(new SeriesKey("", "mixed", "serial_section",
        Metric.REAL_TIME));
    assertEquals(serial.delta() / 1e6, flatMs, 4, top);
    String first = top.lines().filter(l -> l.contains("%")).filter(l -> l.contains("section"))
        .findFirst().orElse("");
    assertTrue(first.contains("serial_section"), "the biggest growth first: " + top);
  }
}
