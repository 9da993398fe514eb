package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare of five runs of `steady 40` (a fixed amount of CPU work) alone (traces/compare/alone-N)
 * against five beside a busy cpuhog (neighbour-N): the code did not change, another process took
 * the CPUs, so the verdict is interference naming cpuhog, exit 0 (5 when asked), never a
 * regression (exit 3).
 */
class CompareInterferenceTest {
  @TempDir Path dir;

  @Test
  void aBusyNeighbourIsInterferenceNotARegression() throws IOException {
    Cli cli = compare();
    assertEquals(0, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("verdict: interference"));
    JsonNode json = CompareCliTest.json(cli, "compare.json");
    assertEquals("interference", json.get("verdict").asText(), json.toString());
    JsonNode real = row(json, null, "real_time");
    assertEquals("regression", real.get("kind").asText(), real.toString());
    assertEquals("interference", real.get("cause").asText(), real.toString());
    double change = real.get("candidate").asDouble() - real.get("baseline").asDouble();
    assertThat(real.get("interference_part_ns").asDouble(), greaterThanOrEqualTo(change / 2));
    assertThat(json.get("notes").toString(), containsString("cpuhog"));
    // The per-state figures are compared too: the wait for others' CPUs grew, significantly.
    for (String metric : List.of("cpu_wait_others", "runnable_others_thread_time",
        "wall_time")) {
      JsonNode r = row(json, null, metric);
      assertEquals("regression", r.get("kind").asText(), r.toString());
      assertThat(metric, r.get("p_value").asDouble(), lessThan(0.05));
    }
  }

  @Test
  void failOnInterferenceExitsWithItsOwnCode() throws IOException {
    Cli cli = compare("--fail-on-interference");
    assertEquals(5, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("verdict: interference"));
    assertEquals(5, CompareCliTest.json(cli, "compare.json").get("exit_code").asInt());
  }

  @Test
  void aNightBesideTheNeighbourIsInterferenceInNightly() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    for (int i = 1; i <= 5; i++) {
      Files.copy(Path.of(CompareCliTest.fixture("alone-" + i)),
          traces.resolve("steady-2026-11-0" + i + ".txt.gz"));
    }
    Files.copy(Path.of(CompareCliTest.fixture("neighbour-2")),
        traces.resolve("steady-2026-11-06.txt.gz"));
    Cli cli = E2e.cli("nightly", "--out", dir.resolve("out").toString(), "--comm", "^steady$",
        traces.resolve("*.txt.gz").toString());
    assertEquals(0, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("verdict: interference"));
    JsonNode json = CompareCliTest.json(cli, "nightly.json");
    assertEquals("interference", json.get("verdict").asText(), json.toString());
    assertThat(json.get("changes").get(0).toString(), containsString("\"cause\":\"interference\""));
    assertThat(cli.stdout(), containsString("cpuhog"));
  }

  private Cli compare(String... extra) throws IOException {
    List<String> args = new ArrayList<>(List.of("compare", "--out", dir.resolve("out").toString(),
        "--comm", "^steady$"));
    args.addAll(List.of(extra));
    for (int i = 1; i <= 5; i++) {
      args.addAll(List.of("--baseline", CompareCliTest.fixture("alone-" + i)));
      args.addAll(List.of("--candidate", CompareCliTest.fixture("neighbour-" + i)));
    }
    return E2e.cli(args.toArray(new String[0]));
  }

  /** The process's (function null) or a function's row of a metric, from compare.json. */
  private static JsonNode row(JsonNode json, String function, String metric) {
    for (JsonNode r : json.get("processes")) {
      boolean fn = r.has("function") && !r.get("function").isNull();
      if (r.get("metric").asText().equals(metric) && (function == null ? !fn
          : fn && r.get("function").asText().equals(function))) {
        return r;
      }
    }
    throw new AssertionError("no row " + function + " " + metric + " in " + json);
  }
}
