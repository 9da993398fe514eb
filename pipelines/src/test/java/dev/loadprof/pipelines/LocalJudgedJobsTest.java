package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare and nightly of local inputs run where analyze runs, in this JVM without a Beam runner
 * (cli.JobPlacement), and write the same bytes as on Beam's DirectRunner ({@code --runner
 * direct}) in every output, with the same console and exit code: on text traces, on archives
 * mixed with traces, with a perf.data run that cannot be analyzed, and for bad input (exit 2).
 */
class LocalJudgedJobsTest {
  static final List<String> COMPARE_OUTPUTS = List.of("compare.txt", "compare.json",
      "baseline.pb.gz", "candidate.pb.gz", "diff.folded", "compare.html", "summary.txt");
  static final List<String> NIGHTLY_OUTPUTS = List.of("nightly.json", "history.csv",
      "nightly.html", "summary.txt");

  @TempDir Path dir;

  /** Every process compared (no --comm): the most figures, notes and interference takers. */
  @Test
  void compareOfTracesIsTheSameAsOnTheDirectRunner() throws IOException {
    same("compare", COMPARE_OUTPUTS, "--baseline", fixture("base-1"), fixture("base-2"),
        fixture("base-3"), "--candidate", fixture("par-1"), fixture("par-2"), fixture("par-3"));
  }

  @Test
  void compareOfAnArchiveAndTracesIsTheSameAsOnTheDirectRunner() throws IOException {
    Path archive = dir.resolve("archive");
    for (String run : List.of("base-1", "base-2", "base-3")) {
      E2e.cli("archive", "--out", archive.toString(), fixture(run)).assertOk();
    }
    same("compare", COMPARE_OUTPUTS, "--comm", "^mixed$", "--baseline", archive.toString(),
        "--candidate", fixture("cpu-1"), fixture("cpu-2"), fixture("cpu-3"));
  }

  /** A perf.data file whose run cannot be analyzed (no switches) among the candidates. */
  @Test
  void compareWithAnUnusablePerfDataRunIsTheSameAsOnTheDirectRunner() throws IOException {
    Path data = dir.resolve("tiny-mixed.data");
    try (InputStream in = new GZIPInputStream(
        LocalJudgedJobsTest.class.getResourceAsStream("/perfdata/tiny-mixed.data.gz"))) {
      Files.copy(in, data);
    }
    same("compare", COMPARE_OUTPUTS, "--comm", "^mixed$", "--baseline", fixture("base-1"),
        fixture("base-2"), "--candidate", fixture("cpu-1"), data.toString());
  }

  @Test
  void nightlyOfTracesAndAnArchiveIsTheSameAsOnTheDirectRunner() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    Path archive = dir.resolve("archive");
    List<String> runs = List.of("base-1", "base-2", "base-3", "base-4", "base-5", "cpu-1");
    for (int i = 0; i < runs.size(); i++) {
      Path night = traces.resolve("mixed-" + NightlyCliTest.FIRST.plusDays(i) + ".txt.gz");
      Files.copy(Path.of(fixture(runs.get(i))), night);
      if (i < 2) { // the first nights archived, the others given as traces
        E2e.cli("archive", "--out", archive.toString(), night.toString()).assertOk();
        Files.delete(night);
      }
    }
    // The archived runs' figures stored by a first nightly, so both ways read them alike.
    E2e.cli("nightly", "--out", dir.resolve("first").toString(), archive.toString());
    E2e.Cli local = same("nightly", NIGHTLY_OUTPUTS, archive.toString(),
        traces.resolve("*.txt.gz").toString());
    assertEquals(3, local.exit(), local.stdout() + local.stderr());
  }

  @Test
  void nightlyOfEveryProcessIsTheSameAsOnTheDirectRunner() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    List<String> runs = List.of("alone-1", "alone-2", "alone-3", "neighbour-1");
    for (int i = 0; i < runs.size(); i++) {
      Files.copy(Path.of(fixture(runs.get(i))),
          traces.resolve("steady-" + NightlyCliTest.FIRST.plusDays(i) + ".txt.gz"));
    }
    same("nightly", NIGHTLY_OUTPUTS, traces.resolve("*.txt.gz").toString());
  }

  /**
   * A --comm that matches nothing is bad input (exit 2), told in the same line both ways: the
   * biggest processes of all runs, though nightly assembles each run alone here.
   */
  @Test
  void badInputIsExitTwoWithTheSameLineBothWays() throws IOException {
    E2e.Cli local = same("compare", List.of(), "--comm", "^no-such-program$", "--baseline",
        fixture("base-1"), "--candidate", fixture("cpu-1"));
    assertEquals(2, local.exit(), local.stderr());
    Path traces = Files.createDirectories(dir.resolve("traces"));
    Files.copy(Path.of(fixture("base-1")), traces.resolve("mixed-2026-11-01.txt.gz"));
    Files.copy(Path.of(fixture("cpu-1")), traces.resolve("mixed-2026-11-02.txt.gz"));
    local = same("nightly", List.of(), "--comm", "^no-such-program$",
        traces.resolve("*.txt.gz").toString());
    assertEquals(2, local.exit(), local.stderr());
    assertTrue(local.stderr().contains(", run mixed-2026-11-01"), local.stderr());
  }

  static String fixture(String name) {
    return CompareCliTest.fixture(name);
  }

  /** Runs the command both ways; returns the local run after checking every output's bytes. */
  private E2e.Cli same(String command, List<String> outputs, String... args) throws IOException {
    long before = LocalAnalysis.jobsStarted();
    E2e.Cli b = run(command, "direct", List.of("--runner", "direct"), args);
    assertEquals(before, LocalAnalysis.jobsStarted(), "--runner direct ran in this JVM");
    E2e.Cli a = run(command, "local", List.of(), args);
    assertEquals(before + 1, LocalAnalysis.jobsStarted(), "local inputs did not run here");
    assertEquals(b.exit(), a.exit(), a.stdout() + a.stderr());
    LocalAnalysisTest.assertSameConsoleAndFiles(b, a, outputs);
    return a;
  }

  private E2e.Cli run(String command, String name, List<String> runner, String... args)
      throws IOException {
    Path out = Files.createDirectories(dir.resolve(name));
    List<String> all = new ArrayList<>(List.of(command, "--out", out.toString(), "--quiet"));
    all.addAll(runner);
    all.addAll(List.of(args));
    return E2e.cli(all.toArray(new String[0]));
  }
}
