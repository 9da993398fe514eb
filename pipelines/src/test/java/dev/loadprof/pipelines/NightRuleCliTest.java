package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule for a run's night (archive.NightRule), on the recorded comparison fixtures (captured
 * on 2026-11-22) copied into dated names: a run named for a night that has not come is not the
 * latest night and is said, and the nights nightly prints are the nights archive filed the runs
 * under.
 */
class NightRuleCliTest {
  @TempDir Path dir;

  /** Fixture to run id, copied into dir/traces as RUN_ID.txt.gz. */
  private Path traces(Map<String, String> runs) throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    for (var e : runs.entrySet()) {
      Files.copy(Path.of(CompareCliTest.fixture(e.getKey())),
          traces.resolve(e.getValue() + ".txt.gz"));
    }
    return traces;
  }

  private static Map<String, String> fiveBaseNightsThen(String fixture, String night) {
    Map<String, String> runs = new LinkedHashMap<>();
    for (int i = 1; i <= 5; i++) {
      runs.put("base-" + i, "mixed-2026-11-0" + i);
    }
    runs.put(fixture, "mixed-" + night);
    return runs;
  }

  @Test
  void aRunNamedForTheFutureIsNotTheLatestNightAndIsSaid() throws IOException {
    Map<String, String> runs = fiveBaseNightsThen("cpu-2", "2026-11-06");
    runs.put("alone-1", "mixed-2099-01-01"); // a typo in a run id, or a clock gone wrong
    Path traces = traces(runs);
    Cli cli = E2e.cli("nightly", "--out", dir.resolve("out").toString(), "--comm", "^mixed$",
        traces.resolve("*.txt.gz").toString());
    // The regression of the real latest night is judged.
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    JsonNode json = CompareCliTest.json(cli, "nightly.json");
    assertEquals("2026-11-06", json.get("latest_night").asText());
    assertThat(cli.stdout() + cli.stderr(), containsString("run mixed-2099-01-01: its night"
        + " 2099-01-01 (from the date in the run id) is in the future"));
  }

  @Test
  void theNightsNightlyPrintsSelectTheArchivedRuns() throws IOException {
    Path traces = traces(fiveBaseNightsThen("base-1", "2026-11-06"));
    Path archive = dir.resolve("archive");
    Cli archived = E2e.cli("archive", "--out", archive.toString(),
        traces.resolve("*.txt.gz").toString());
    assertEquals(0, archived.exit(), archived.stdout() + archived.stderr());

    Cli all = E2e.cli("nightly", "--out", dir.resolve("all").toString(), "--comm", "^mixed$",
        archive.toString());
    assertEquals(0, all.exit(), all.stdout() + all.stderr());
    JsonNode json = CompareCliTest.json(all, "nightly.json");
    String latest = json.get("latest_night").asText();
    assertEquals("2026-11-06", latest);

    // The nights nightly printed, as a --nights selection: the same runs, the same verdict.
    Cli selected = E2e.cli("nightly", "--out", dir.resolve("selected").toString(), "--comm",
        "^mixed$", "--nights", "2026-11-01.." + latest, archive.toString());
    assertEquals(0, selected.exit(), selected.stdout() + selected.stderr());
    assertEquals(json.get("benchmarks"),
        CompareCliTest.json(selected, "nightly.json").get("benchmarks"));
    Cli latestOnly = E2e.cli("analyze", "--out", dir.resolve("latest").toString(), "--nights",
        latest, archive.toString());
    assertEquals(0, latestOnly.exit(), latestOnly.stdout() + latestOnly.stderr());
    assertEquals(1, latestOnly.summary().get("runs").size(), latestOnly.summary().toString());
  }
}
