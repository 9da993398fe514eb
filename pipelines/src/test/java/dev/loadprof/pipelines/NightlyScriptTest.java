package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/nightly.sh on the DirectRunner, two nights of cron: five baseline nights are archived
 * and judged (exit 0); the next night brings a CPU regression, only the new trace is archived,
 * and the latest night is a regression (exit 3) with cause cpu in nightly.json.
 */
class NightlyScriptTest {
  @TempDir Path dir;

  @Test
  void archivesTheNewTracesAndJudgesTheLatestNight() throws Exception {
    Path inbox = dir.resolve("inbox");
    String[] args = {"--traces", inbox + "/*.txt.gz", "--archive", dir.resolve("archive")
        .toString(), "--out", dir.resolve("out").toString(), "--comm", "^mixed$"};
    NightlyScript.addNights(inbox, 0, List.of("base-1", "base-2", "base-3", "base-4",
        "base-5"));
    NightlyScript.Result first = NightlyScript.run(dir, Map.of(), args);
    assertEquals(0, first.exit(), first.output());
    assertThat(first.output(), containsString("5 runs added"));
    assertThat(first.output(), containsString("verdict: no change"));

    NightlyScript.addNights(inbox, 5, List.of("cpu-2"));
    NightlyScript.Result second = NightlyScript.run(dir, Map.of(), args);
    assertEquals(3, second.exit(), second.output());
    assertThat(second.output(), containsString("1 runs added"));
    JsonNode json = E2e.JSON.readTree(dir.resolve("out/nightly.json").toFile());
    assertEquals("2026-11-06", json.get("latest_night").asText());
    CompareCliTest.assertRegression(json, "serial_section", "cpu");
  }

  @Test
  void missingOptionsExitTwo() throws Exception {
    NightlyScript.Result r = NightlyScript.run(dir, Map.of(), "--archive", dir.toString());
    assertEquals(2, r.exit(), r.output());
    assertThat(r.output(), containsString("nightly.sh: give the new traces with --traces"));
  }
}
