package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.compare.Attribution.Cause;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.GroupBy;
import java.io.ByteArrayOutputStream;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * nightly on the recorded fixtures, one run a night under run ids such as mixed-2026-11-03-a
 * (benchmark mixed), benchmark process only (--comm '^mixed$').
 */
class NightlyFixturesTest {
  static final LocalDate FIRST = LocalDate.of(2026, 11, 1);

  /** The fixtures in night order, one a night from 2026-11-01. */
  static Analysis nights(List<String> fixtures) {
    Map<String, String> ids = new LinkedHashMap<>();
    for (int i = 0; i < fixtures.size(); i++) {
      ids.put(fixtures.get(i), "mixed-" + FIRST.plusDays(i) + "-a");
    }
    return TraceRuns.analysis(ids, GroupBy.NONE, Pattern.compile("^mixed$"));
  }

  static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).collect(Collectors.toList());
  }

  static ChangePoint find(Nightly n, String function, Metric m) {
    for (ChangePoint cp : n.changePoints()) {
      if (m.equals(cp.key().metric()) && java.util.Objects.equals(function, cp.key().function())) {
        return cp;
      }
    }
    return null;
  }

  static String describe(Nightly n) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new NightlyJson().write(n, out);
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void cpuRegressionIsAChangePointAtItsNightWithCauseCpu() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(concat(TraceRuns.runs("base", 1, 2, 3, 4, 5),
        TraceRuns.runs("cpu", 2, 3, 4, 5))), NightlySettings.DEFAULT);
    ChangePoint cp = find(n, "serial_section", Metric.REAL_TIME);
    assertNotNull(cp, describe(n));
    assertEquals(FIRST.plusDays(5), cp.night());
    assertEquals("mixed", cp.key().group());
    assertEquals(MetricComparison.REGRESSION, cp.kind());
    assertEquals(Cause.CPU, cp.attribution().cause());
    // The latest night is compared with the nights since the change point: nothing new.
    assertEquals(Verdict.NO_CHANGE, n.verdict(), describe(n));
    assertEquals(List.of("cpu-2", "cpu-3", "cpu-4").size(),
        n.latest().get("mixed").baselineRuns().size());
  }

  @Test
  void parallelismRegressionIsAChangePointWithCauseParallelism() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(concat(TraceRuns.runs("base", 1, 2, 3, 4, 5),
        TraceRuns.runs("par", 1, 2, 3, 4, 5))), NightlySettings.DEFAULT);
    ChangePoint cp = find(n, "parallel_section", Metric.REAL_TIME);
    assertNotNull(cp, describe(n));
    assertEquals(FIRST.plusDays(5), cp.night());
    assertEquals(Cause.PARALLELISM, cp.attribution().cause());
    assertEquals(null, find(n, "serial_section", Metric.REAL_TIME), describe(n));
  }

  @Test
  void latestNightRegressionExitsThree() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(concat(TraceRuns.runs("base", 1, 2, 3, 4, 5),
        TraceRuns.runs("cpu", 2))), NightlySettings.DEFAULT);
    assertEquals(FIRST.plusDays(5), n.latestNight());
    assertEquals(Verdict.REGRESSION, n.verdict(), describe(n));
    assertEquals(3, n.exitCode());
    MetricComparison first = n.changes().get(0);
    assertEquals("serial_section", first.key().function());
    assertEquals(Cause.CPU, first.attribution().cause());
    JsonNode json = new ObjectMapper().readTree(describe(n));
    assertEquals("regression", json.get("verdict").asText());
    assertEquals("mixed", json.get("changes").get(0).get("benchmark").asText());
    assertEquals("cpu", json.get("changes").get(0).get("cause").asText());
  }

  @Test
  void baseNightsRaiseNothing() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(TraceRuns.runs("base", 1, 2, 3, 4, 5)),
        NightlySettings.DEFAULT);
    assertEquals(List.of(), n.changePoints(), describe(n));
    assertEquals(Verdict.NO_CHANGE, n.verdict(), describe(n));
    assertEquals(0, n.exitCode());
  }

  @Test
  void historyLimitsTheLatestBaseline() throws Exception {
    Nightly n = NightlyHistory.nightly(nights(TraceRuns.runs("base", 1, 2, 3, 4, 5)),
        NightlySettings.DEFAULT.withHistory(2));
    assertEquals(List.of("mixed-2026-11-03-a", "mixed-2026-11-04-a"),
        n.latest().get("mixed").baselineRuns());
  }

  @Test
  void nightFromTheRunIdOrTheCapturedOnHeader() throws Exception {
    assertEquals(LocalDate.of(2026, 11, 1), Nights.fromRunId("mixed-2026-11-01-a"));
    assertEquals(LocalDate.of(2026, 11, 1), Nights.fromRunId("nightly_20261101"));
    assertEquals(null, Nights.fromRunId("build-12345678"), "not a date");
    assertEquals("mixed", Nights.benchmarkOf("mixed-2026-11-01-a"));
    assertEquals("db-load", Nights.benchmarkOf("20261101-db-load"));
    // The parser keeps the header's "# captured on    : Sun Nov 22 20:33:38 2026" in RunInfo.
    Map<String, String> ids = new LinkedHashMap<>();
    ids.put("base-1", "mixed-a");
    Analysis a = TraceRuns.analysis(ids, GroupBy.NONE, Pattern.compile("^mixed$"));
    assertEquals("2026-11-22", a.runs().get(0).capturedOn);
    Nightly dated = NightlyHistory.nightly(a, NightlySettings.DEFAULT);
    assertEquals(LocalDate.of(2026, 11, 22), dated.latestNight());
    a.runs().get(0).capturedOn = "";
    CompareInputException undated = assertThrows(CompareInputException.class,
        () -> NightlyHistory.nightly(a, NightlySettings.DEFAULT));
    assertTrue(undated.getMessage().contains("no healthy run with a night"),
        undated.getMessage());
    assertTrue(dated.notes().get(0).contains("no earlier night"), dated.notes().toString());
  }
}
