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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loadprof compare end to end on the recorded comparison fixtures (mixed with its default knobs,
 * with a longer serial section, and with fewer workers; five runs each), benchmark process only.
 */
class CompareCliTest {
  @TempDir Path dir;

  static String fixture(String name) {
    return Fixture.file("/traces/compare/" + name + ".txt.gz").toString();
  }

  /** "compare --out DIR --comm ^mixed$ --baseline base-1.. --candidate KIND-..". */
  Cli compare(List<String> baseline, List<String> candidate, String... more) {
    List<String> args = new ArrayList<>(List.of("compare", "--out", dir.resolve("out").toString(),
        "--comm", "^mixed$"));
    baseline.forEach(b -> args.addAll(List.of("--baseline", fixture(b))));
    candidate.forEach(c -> args.addAll(List.of("--candidate", fixture(c))));
    args.addAll(List.of(more));
    return E2e.cli(args.toArray(new String[0]));
  }

  static List<String> runs(String kind, int... n) {
    List<String> out = new ArrayList<>();
    for (int i : n) {
      out.add(kind + "-" + i);
    }
    return out;
  }

  static JsonNode json(Cli cli, String file) throws IOException {
    return E2e.JSON.readTree(cli.out().resolve(file).toFile());
  }

  /** The verdict is a regression, and the function's real time is one, with this cause. */
  static void assertRegression(JsonNode json, String function, String cause) {
    assertEquals("regression", json.get("verdict").asText(), json.toString());
    for (JsonNode c : json.get("changes")) {
      if (function.equals(c.path("function").asText()) && "real_time".equals(
          c.get("metric").asText())) {
        assertEquals("regression", c.get("kind").asText());
        assertEquals(cause, c.get("cause").asText(), c.toString());
        return;
      }
    }
    throw new AssertionError("no real-time change of " + function + ": " + json.get("changes"));
  }

  @Test
  void cpuRegressionInSerialSectionExitsThree() throws IOException {
    Cli cli = compare(runs("base", 1, 2, 3, 4, 5), runs("cpu", 1, 2, 3, 4, 5));
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    assertRegression(json(cli, "compare.json"), "serial_section", "cpu");
    // Regressions first, the largest first: the serial section leads.
    assertEquals("serial_section", json(cli, "compare.json").get("changes").get(0)
        .get("function").asText());
    assertThat(cli.stdout(), containsString("verdict: regression"));
    assertThat(cli.stdout(), containsString("mixed serial_section  real_time"));
    for (String f : List.of("compare.txt", "compare.json", "baseline.pb.gz", "candidate.pb.gz",
        "diff.folded", "compare.html", "summary.txt")) {
      assertEquals(true, Files.size(cli.out().resolve(f)) > 0, f);
    }
  }

  @Test
  void parallelismRegressionInParallelSectionExitsThree() throws IOException {
    Cli cli = compare(runs("base", 1, 2, 3, 4, 5), runs("par", 1, 2, 3, 4, 5));
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    assertRegression(json(cli, "compare.json"), "parallel_section", "parallelism");
  }

  @Test
  void baselineAgainstBaselineExitsZero() throws IOException {
    Cli cli = compare(runs("base", 1, 2, 3), runs("base", 4, 5), "--threshold", "5%,10ms",
        "--alpha", "0.05");
    assertEquals(0, cli.exit(), cli.stdout() + cli.stderr());
    JsonNode json = json(cli, "compare.json");
    assertEquals("no change", json.get("verdict").asText());
    assertEquals(0, json.get("changes").size(), json.toString());
    // 3 + 2 runs: the rank test cannot reach p < 0.05, so the t-test judges, and says so.
    assertThat(cli.stdout(), containsString("cannot reach p < 0.05"));
    assertThat(cli.stdout(), containsString("judged by Student's t-test"));
  }

  @Test
  void oneRunASideSaysNoSignificanceCanBeClaimed() {
    Cli cli = compare(runs("base", 1), runs("base", 2));
    assertThat(cli.stdout(), containsString("no significance can be claimed"));
  }

  /** Several paths after one flag, as a shell glob expands them. */
  @Test
  void severalPathsAfterOneFlag() throws IOException {
    List<String> args = new ArrayList<>(List.of("compare", "--out",
        dir.resolve("out").toString(), "--baseline"));
    runs("base", 1, 2, 3, 4, 5).forEach(b -> args.add(fixture(b)));
    args.add("--candidate");
    runs("cpu", 1, 2, 3, 4, 5).forEach(c -> args.add(fixture(c)));
    args.addAll(List.of("--comm", "^mixed$"));
    Cli cli = E2e.cli(args.toArray(new String[0]));
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("Compared 5 baseline with 5 candidate runs"));
  }

  /** bash expands the globs (as a user's shell does); its words are the CLI's arguments. */
  @Test
  void aShellGlobAfterOneFlag() throws IOException, InterruptedException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    for (String r : List.of("base-1", "base-2", "base-3", "base-4", "par-1", "par-2", "par-3",
        "par-4")) {
      Files.copy(Path.of(fixture(r)), traces.resolve(r + ".txt.gz"));
    }
    Process bash = new ProcessBuilder("bash", "-c", "cd \"$1\" && printf '%s\\0' compare"
        + " --out \"$2\" --baseline base-*.txt.gz --candidate par-*.txt.gz --comm '^mixed$'",
        "bash", traces.toString(), dir.resolve("out").toString()).start();
    String words = new String(bash.getInputStream().readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, bash.waitFor());
    String[] args = words.split("\0");
    assertEquals(15, args.length, String.join(" ", args)); // the globs gave 4 + 4 paths
    for (int i = 0; i < args.length; i++) { // relative to the glob's directory
      if (args[i].endsWith(".txt.gz")) {
        args[i] = traces.resolve(args[i]).toString();
      }
    }
    Cli cli = E2e.cli(args);
    assertEquals(3, cli.exit(), cli.stdout() + cli.stderr());
    assertThat(cli.stdout(), containsString("Compared 4 baseline with 4 candidate runs"));
    assertRegression(json(cli, "compare.json"), "parallel_section", "parallelism");
  }

  /** A --comm or --pid that matches nothing (a typo) is bad input, not "no change". */
  @Test
  void aSelectionThatMatchesNothingExitsTwo() throws IOException {
    for (String[] selection : List.of(new String[] {"--comm", "^mixd$"},
        new String[] {"-p", "999999"})) {
      List<String> args = new ArrayList<>(List.of("compare", "--out",
          dir.resolve("sel" + selection[0]).toString(), "--baseline", fixture("base-1"),
          fixture("base-2"), "--candidate", fixture("cpu-1"), fixture("cpu-2")));
      args.addAll(List.of(selection));
      Cli cli = E2e.cli(args.toArray(new String[0]));
      String what = String.join(" ", selection) + ": " + cli.stdout() + cli.stderr();
      assertEquals(2, cli.exit(), what);
      String last = cli.stderr().strip().lines().reduce((a, b) -> b).orElse("");
      assertThat(what, last, containsString("no process matches " + String.join(" ",
          selection.clone()).replace("-p ", "--pid ")));
      assertThat(what, last, containsString("mixed (pid "));
    }
  }

  @Test
  void badInputsExitTwoWithOneLineAndNothingInOut() throws IOException {
    Path junk = dir.resolve("junk.txt");
    Files.writeString(junk, "hello\nworld\n");
    String base = fixture("base-1");
    List<String[]> cases = List.of(
        new String[] {"--baseline", base},
        new String[] {"--baseline", base, "--candidate", dir.resolve("missing.txt.gz").toString()},
        new String[] {"--baseline", base, "--candidate", base},
        new String[] {"--baseline", base, "--candidate", fixture("cpu-1"), "--threshold", "5x"},
        new String[] {"--baseline", base, "--candidate", fixture("cpu-1"), "--alpha", "2"},
        new String[] {"--baseline", base, "--candidate", fixture("cpu-1"), "--load", "1"},
        // found in the job: no usable candidate run
        new String[] {"--baseline", base, "--candidate", junk.toString()});
    List<String> expected = List.of("--candidate", "no such trace", "both a baseline and a"
        + " candidate", "bad threshold", "not a significance level", "--load does not apply",
        "no usable candidate run");
    for (int i = 0; i < cases.size(); i++) {
      Path out = dir.resolve("bad" + i);
      List<String> args = new ArrayList<>(List.of("compare", "--out", out.toString()));
      args.addAll(List.of(cases.get(i)));
      Cli cli = E2e.cli(args.toArray(new String[0]));
      String what = String.join(" ", args) + "\n" + cli.stderr();
      assertEquals(2, cli.exit(), what);
      String last = cli.stderr().strip().lines().reduce((a, b) -> b).orElse("");
      assertThat(what, last, containsString("loadprof: "));
      assertThat(what, last, containsString(expected.get(i)));
      assertFalse(Files.exists(out) && hasFiles(out), "files left in " + out + ": " + what);
    }
    // Without -o, compare writes beside analyze's ./loadprof-out, as its help says.
    Cli help = E2e.cli("compare", "--help");
    assertEquals(0, help.exit());
    assertThat(help.stdout(), containsString("(default: ./loadprof-compare"));
  }

  static boolean hasFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.anyMatch(Files::isRegularFile);
    }
  }
}
