package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare of five runs of an unchanged `mixed 15 2` alone (traces/compare/alone-N) against five
 * beside a busy cpuhog (neighbour-N): the code did not change, other processes took the CPUs,
 * so the verdict is interference, naming cpuhog, and not a regression (exit 3).
 */
class CompareInterferenceTest {
  @TempDir Path dir;

  @Disabled("needs the interference verdict of compare (not built yet)")
  @Test
  void aBusyNeighbourIsInterferenceNotARegression() throws IOException {
    List<String> args = new ArrayList<>(List.of("compare", "--out", dir.resolve("out").toString(),
        "--comm", "^mixed$"));
    for (int i = 1; i <= 5; i++) {
      args.addAll(List.of("--baseline", CompareCliTest.fixture("alone-" + i)));
      args.addAll(List.of("--candidate", CompareCliTest.fixture("neighbour-" + i)));
    }
    Cli cli = E2e.cli(args.toArray(new String[0]));
    assertNotEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("verdict: interference"));
    JsonNode json = CompareCliTest.json(cli, "compare.json");
    assertEquals("interference", json.get("verdict").asText(), json.toString());
    assertThat(json.toString(), containsString("cpuhog"));
  }
}
