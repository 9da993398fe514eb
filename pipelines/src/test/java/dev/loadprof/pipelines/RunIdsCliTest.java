package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run ids of traces as loadprof record names them, and one trace, one run: nightly and compare
 * take record's outputs (PROGRAM-YYYYMMDD-HHMMSS.data) as they are, one file name in two
 * directories is two runs, and the same trace under two run ids is one run, the other listed as
 * excluded, in analyze, compare and nightly; in compare, the same trace on both sides is refused.
 * The traces are the recorded compare fixtures, copied to such names.
 */
class RunIdsCliTest {
  @TempDir Path dir;

  private Path copy(String fixture, String to) throws IOException {
    Path target = dir.resolve(to);
    Files.createDirectories(target.getParent());
    return Files.copy(Path.of(CompareCliTest.fixture(fixture)), target);
  }

  /** compare of the traces of two globs under the test's directory, into c/. */
  private Cli compare(String baseline, String candidate) {
    return E2e.cli("compare", "--out", dir.resolve("c").toString(), "--comm", "^mixed$",
        "--baseline", dir + baseline, "--candidate", dir + candidate);
  }

  /** compare.json of a comparison that ran (exit 0 or 3). */
  private JsonNode comparedJson(String baseline, String candidate) throws IOException {
    Cli compare = compare(baseline, candidate);
    assertTrue(compare.exit() == 0 || compare.exit() == 3, compare.stdout() + compare.stderr());
    return CompareCliTest.json(compare, "compare.json");
  }

  /** The runs of each night in history.csv's real-time rows of the process. */
  private static Map<String, String> runsByNight(Cli nightly) throws IOException {
    Map<String, String> runs = new TreeMap<>();
    for (String row : Files.readAllLines(nightly.out().resolve("history.csv"))) {
      String[] f = row.split(",");
      if (f[1].equals("mixed") && f[2].isEmpty() && f[3].equals("real_time")) {
        runs.put(f[4], f[5]);
      }
    }
    return runs;
  }

  @Test
  void nightlyTakesRecordedNamesAndCountsACopyOnce() throws IOException {
    copy("base-1", "out/mixed-20261101-221503.data");
    copy("base-2", "out/mixed-20261102-221500.data");
    copy("base-3", "out/mixed-20261103-221458.data");
    copy("base-4", "out/mixed-20261103-231000.data"); // a repeat of that night
    copy("base-2", "out/mixed-20261104-221501.data"); // the same trace as the 2nd night's
    Cli nightly = E2e.cli("nightly", "--out", dir.resolve("n").toString(), "--comm", "^mixed$",
        dir.resolve("out") + "/mixed-*.data");
    assertEquals(0, nightly.exit(), nightly.stdout() + nightly.stderr());
    assertEquals(Map.of("2026-11-01", "1", "2026-11-02", "1", "2026-11-03", "2"),
        runsByNight(nightly));
    JsonNode json = CompareCliTest.json(nightly, "nightly.json");
    assertEquals("2026-11-03", json.get("latest_night").asText());
    assertEquals(1, json.get("benchmarks").size(), json.get("benchmarks").toString());
    assertEquals("mixed", json.get("benchmarks").get(0).get("benchmark").asText());
    JsonNode excluded = json.get("excluded_runs");
    assertEquals(1, excluded.size(), excluded.toString());
    assertEquals("mixed-20261104-221501", excluded.get(0).get("run").asText());
    String why = "is the same trace as run mixed-20261102-221500 (" + dir.resolve(
        "out/mixed-20261102-221500.data") + "; identical bytes, sha256:";
    assertThat(excluded.get(0).get("reason").asText(), containsString(why));
    assertThat(nightly.stdout() + nightly.stderr(), containsString(why)); // said on the console
  }

  @Test
  void oneFileNameInTwoDirectoriesIsTwoRuns() throws IOException {
    copy("base-1", "base-1/mixed.data");
    copy("base-2", "base-2/mixed.data");
    copy("cpu-1", "new-1/mixed.data");
    copy("cpu-2", "new-2/mixed.data");
    JsonNode json = comparedJson("/base-*/mixed.data", "/new-*/mixed.data");
    assertEquals("[\"base-1/mixed\",\"base-2/mixed\"]", json.get("baseline_runs").toString());
    assertEquals("[\"new-1/mixed\",\"new-2/mixed\"]", json.get("candidate_runs").toString());
    assertEquals(0, json.get("excluded_runs").size(), json.toString());
  }

  @Test
  void theSameTraceOnBothSidesOfCompareIsRefused() throws IOException {
    Path base = copy("base-1", "a/mixed-20261101-221503.data");
    copy("base-2", "a/mixed-20261102-221500.data");
    Path again = copy("base-1", "b/mixed-20261105-080000.data");
    copy("cpu-2", "b/mixed-20261106-080000.data");
    Cli compare = compare("/a/*.data", "/b/*.data");
    assertEquals(2, compare.exit(), compare.stdout() + compare.stderr());
    List<String> lines = compare.stderr().lines().filter(l -> !l.isBlank()).toList();
    assertEquals(1, lines.size(), compare.stderr());
    assertThat(lines.get(0), containsString("the same trace is on both sides: " + base + " and "
        + again + " hold identical bytes (sha256:"));
    assertFalse(Files.exists(dir.resolve("c/compare.json")));
  }

  @Test
  void theSameTraceTwiceOnOneSideOfCompareIsOneRun() throws IOException {
    copy("base-1", "a/mixed-20261101-221503.data");
    copy("base-2", "a/mixed-20261102-221500.data");
    copy("base-2", "a/mixed-20261102-221500-2.data");
    copy("cpu-1", "b/mixed-20261105-080000.data");
    copy("cpu-2", "b/mixed-20261106-080000.data");
    JsonNode json = comparedJson("/a/*.data", "/b/*.data");
    assertEquals(2, json.get("baseline_runs").size(), json.toString());
    assertEquals("mixed-20261102-221500-2", json.get("excluded_runs").get(0).get("run").asText());
    assertThat(Files.readString(dir.resolve("c/summary.txt")), containsString("left out:"
        + " mixed-20261102-221500-2: run mixed-20261102-221500-2 ("));
  }

  @Test
  void analyzeReadsTheSameTraceOnceAndListsTheOther() throws IOException {
    Path one = copy("base-1", "x/one.txt.gz");
    copy("base-1", "y/two.txt.gz");
    Cli twice = E2e.analyze(dir.resolve("twice"), one.toString(), dir + "/y/two.txt.gz")
        .assertOk();
    Cli once = E2e.analyze(dir.resolve("once"), one.toString()).assertOk();
    List<String> ids = new ArrayList<>();
    twice.summary().get("runs").forEach(r -> ids.add(r.get("run_id").asText()));
    assertEquals(List.of("one", "two"), ids);
    JsonNode two = twice.summary().get("runs").get(1);
    assertEquals(0, two.get("processes").size(), two.toString());
    assertThat(two.get("warnings").get(0).asText(), containsString("run two ("
        + dir.resolve("y/two.txt.gz") + ") is the same trace as run one (" + one + ";"));
    assertThat(twice.stderr(), containsString("is the same trace as run one"));
    // The profile is the one run's, not twice it.
    assertEquals(once.file("histogram.txt"), twice.file("histogram.txt"));
    assertEquals(once.file("functions.txt"), twice.file("functions.txt"));
  }
}
