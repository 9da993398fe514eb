package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One trace archived under two run ids (the same SHA-256 fingerprint) is one run: nightly's
 * night has n = 1, and the output names both run ids.
 */
class SameTraceTest {
  static final String SAID = "run mixed-2026-11-05-b is the same trace as run mixed-2026-11-05";

  @TempDir Path dir;

  @Test
  void aTraceArchivedTwiceUnderTwoRunIdsCountsOnce() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    for (int i = 1; i <= 5; i++) {
      Files.copy(Path.of(CompareCliTest.fixture("base-" + i)),
          traces.resolve("mixed-2026-11-0" + i + ".txt.gz"));
    }
    Path archive = dir.resolve("archive");
    Cli first = E2e.cli("archive", "--out", archive.toString(),
        traces.resolve("*.txt.gz").toString());
    assertEquals(0, first.exit(), first.stdout() + first.stderr());
    // The same trace again, under another name (a job re-run with a new id, say).
    Path again = Files.createDirectories(dir.resolve("again"));
    Files.copy(Path.of(CompareCliTest.fixture("base-5")),
        again.resolve("mixed-2026-11-05-b.txt.gz"));
    Cli second = E2e.cli("archive", "--out", archive.toString(),
        again.resolve("mixed-2026-11-05-b.txt.gz").toString());
    assertEquals(0, second.exit(), second.stdout() + second.stderr());

    Cli nightly = E2e.cli("nightly", "--out", dir.resolve("out").toString(), "--comm",
        "^mixed$", archive.toString());
    assertEquals(0, nightly.exit(), nightly.stdout() + nightly.stderr());
    List<String> rows = Files.readAllLines(dir.resolve("out").resolve("history.csv"));
    List<String> lastNight = rows.stream().filter(r -> r.contains(",2026-11-05,")).toList();
    assertTrue(!lastNight.isEmpty(), rows.toString());
    for (String row : lastNight) {
      assertEquals("1", row.split(",")[5], row); // runs: one, not two
    }
    assertThat(nightly.stdout() + nightly.stderr(), containsString(SAID));

    Cli compare = E2e.cli("compare", "--out", dir.resolve("compare").toString(), "--comm",
        "^mixed$", "--baseline", CompareCliTest.fixture("cpu-1"), CompareCliTest.fixture("cpu-3"),
        CompareCliTest.fixture("cpu-4"), "--candidate", archive.toString());
    assertThat(compare.stdout() + compare.stderr(), containsString(SAID));
    com.fasterxml.jackson.databind.JsonNode json = CompareCliTest.json(compare, "compare.json");
    assertEquals(5, json.get("candidate_runs").size(), json.get("candidate_runs").toString());
  }
}
