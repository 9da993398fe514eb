package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loadprof nightly end to end: the recorded fixtures copied into dated names, one run a night
 * from 2026-11-01 (mixed-2026-11-01.txt.gz, ...), benchmark process only.
 */
class NightlyCliTest {
  static final LocalDate FIRST = LocalDate.of(2026, 11, 1);

  @TempDir Path dir;

  /** The fixtures as nights, in order, in dir/traces. */
  Path nights(List<String> fixtures) throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    for (int i = 0; i < fixtures.size(); i++) {
      Files.copy(Path.of(CompareCliTest.fixture(fixtures.get(i))),
          traces.resolve("mixed-" + FIRST.plusDays(i) + ".txt.gz"));
    }
    return traces;
  }

  Cli nightly(Path traces, String... more) {
    String[] args = new String[6 + more.length];
    System.arraycopy(new String[] {"nightly", "--out", dir.resolve("out").toString(), "--comm",
        "^mixed$", traces.resolve("*.txt.gz").toString()}, 0, args, 0, 6);
    System.arraycopy(more, 0, args, 6, more.length);
    return E2e.cli(args);
  }

  static List<String> base() {
    return List.of("base-1", "base-2", "base-3", "base-4", "base-5");
  }

  static List<String> plus(List<String> a, String b) {
    return java.util.stream.Stream.concat(a.stream(), java.util.stream.Stream.of(b)).toList();
  }

  @Test
  void cpuRegressionOnTheLatestNightExitsThree() throws IOException {
    Cli cli = nightly(nights(plus(base(), "cpu-2")));
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    JsonNode json = CompareCliTest.json(cli, "nightly.json");
    assertEquals(FIRST.plusDays(5).toString(), json.get("latest_night").asText());
    CompareCliTest.assertRegression(json, "serial_section", "cpu");
    assertEquals("mixed", json.get("changes").get(0).get("benchmark").asText());
    assertThat(cli.stdout(), containsString("verdict: regression"));
    assertThat(cli.file("history.csv"), containsString("mixed,mixed,serial_section,real_time,"
        + FIRST.plusDays(5) + ",1,"));
    assertThat(cli.file("nightly.html"), containsString("<title>loadprof nightly: regression"));
  }

  @Test
  void parallelismRegressionOnTheLatestNightExitsThree() throws IOException {
    Cli cli = nightly(nights(plus(base(), "par-1")), "--history", "7");
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    CompareCliTest.assertRegression(CompareCliTest.json(cli, "nightly.json"),
        "parallel_section", "parallelism");
  }

  @Test
  void baseNightsExitZero() throws IOException {
    Cli cli = nightly(nights(base()));
    assertEquals(0, cli.exit(), cli.stdout() + cli.stderr());
    JsonNode json = CompareCliTest.json(cli, "nightly.json");
    assertEquals("no change", json.get("verdict").asText());
    assertEquals(0, json.get("change_points").size(), json.toString());
  }

  @Test
  void oneNightSaysThereIsNothingToCompareWith() throws IOException {
    Cli cli = nightly(nights(List.of("base-1")));
    assertEquals(0, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("no earlier night to compare the latest night"));
  }

  @Test
  void aCommThatMatchesNothingExitsTwo() throws IOException {
    Path traces = nights(List.of("base-1", "base-2", "cpu-1"));
    Cli cli = E2e.cli("nightly", "--out", dir.resolve("out").toString(), "--comm", "^mixd$",
        traces.resolve("*.txt.gz").toString());
    assertEquals(2, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stderr(), containsString("no process matches --comm ^mixd$; the biggest"
        + " processes are: mixed (pid "));
  }

  @Test
  void badInputsExitTwoWithNothingInOut() throws IOException {
    Path traces = nights(List.of("base-1", "base-2"));
    Path out = dir.resolve("out");
    for (String[] more : List.of(new String[] {"--history", "0"},
        new String[] {"--alpha", "x"}, new String[] {"--load", "2"})) {
      Cli cli = nightly(traces, more);
      assertEquals(2, cli.exit(), String.join(" ", more) + "\n" + cli.stderr());
      assertThat(cli.stderr(), containsString("loadprof: "));
      assertFalse(Files.exists(out) && CompareCliTest.hasFiles(out), String.join(" ", more));
    }
    Cli missing = E2e.cli("nightly", "--out", out.toString(), dir.resolve("nope.txt.gz")
        .toString());
    assertEquals(2, missing.exit());
    assertThat(missing.stderr(), containsString("no such trace"));
    assertFalse(Files.exists(out) && CompareCliTest.hasFiles(out));
    Cli none = E2e.cli("nightly", "--out", out.toString());
    assertEquals(2, none.exit());
  }
}
