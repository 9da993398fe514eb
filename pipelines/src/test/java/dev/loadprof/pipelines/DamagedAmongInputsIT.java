package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * analyze of several inputs with a damaged perf.data among them (the shipped one cut in its
 * header: the native reader hands it to perf script, which says it is damaged): the good inputs are analyzed and
 * their outputs written with the figures they have alone, the damaged one is named, and the exit
 * is 2. When every input is damaged, each is named and nothing is written.
 */
class DamagedAmongInputsIT {
  @TempDir static Path dir;
  static Path cut;
  static Path cutToo;
  static Path phases;
  static Path mixed;

  @BeforeAll
  static void inputs() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF); // perf script reads the damaged files
    byte[] bytes;
    try (InputStream in = new GZIPInputStream(DamagedAmongInputsIT.class
        .getResourceAsStream("/perfdata/tiny-mixed.data.gz"))) {
      bytes = in.readAllBytes();
    }
    cut = dir.resolve("cut.data");
    Files.write(cut, Arrays.copyOf(bytes, bytes.length / 2));
    cutToo = dir.resolve("cut-too.data");
    Files.write(cutToo, Arrays.copyOf(bytes, bytes.length / 3));
    phases = E2e.trace("phases");
    mixed = E2e.trace("mixed");
  }

  private static Map<String, JsonNode> runsBySource(Cli cli) {
    Map<String, JsonNode> runs = new HashMap<>();
    cli.summary().get("runs").forEach(r -> runs.put(r.get("source").asText(), r));
    return runs;
  }

  @Test
  void theGoodInputsAreWrittenAndTheDamagedOneIsNamed() {
    Cli all = E2e.cli("analyze", "--out", dir.resolve("all").toString(), phases.toString(),
        cut.toString(), mixed.toString());
    assertEquals(2, all.exit(), all.stderr());
    assertThat(all.stderr(), containsString("loadprof: " + cut + ": the perf.data file is"
        + " damaged"));
    assertThat(all.stderr(), containsString("loadprof: 1 of 3 traces could not be analyzed"));
    assertThat(all.stdout(), containsString("Outputs in " + dir.resolve("all")));

    Map<String, JsonNode> runs = runsBySource(all);
    assertThat(runs.get(cut.toString()).get("unusable_reason").asText(),
        containsString(cut + ": the perf.data file is damaged"));
    for (Path good : new Path[] {phases, mixed}) {
      Cli alone = E2e.cli("analyze", "--out", dir.resolve("alone-" + good.getFileName())
          .toString(), good.toString());
      assertEquals(0, alone.exit(), alone.stderr());
      JsonNode expected = runsBySource(alone).get(good.toString());
      JsonNode got = runs.get(good.toString());
      assertEquals("", got.get("unusable_reason").asText());
      for (String figure : new String[] {"sample_records", "samples_in_profiles"}) {
        assertEquals(expected.get("health").get(figure), got.get("health").get(figure),
            good + " " + figure);
      }
      assertEquals(expected.get("processes"), got.get("processes"), good.toString());
    }
  }

  @Test
  void whenEveryInputIsDamagedEachIsNamedAndNothingIsWritten() {
    Path out = dir.resolve("none");
    Cli none = E2e.cli("analyze", "--out", out.toString(), cut.toString(), cutToo.toString());
    assertEquals(2, none.exit(), none.stderr());
    assertThat(none.stderr(), containsString("loadprof: " + cut + ": the perf.data file is"
        + " damaged"));
    assertThat(none.stderr(), containsString("loadprof: " + cutToo + ": the perf.data file is"
        + " damaged"));
    assertThat(none.stderr(), containsString("loadprof: 2 of 2 traces could not be analyzed"));
    assertFalse(Files.exists(out.resolve("summary.json")));
    assertTrue(none.stdout().isEmpty(), none.stdout());
  }
}
