package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.report.Reports;
import dev.loadprof.testtools.RequiredTools;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * analyze without a Beam runner (the default for local inputs, {@link LocalAnalysis}) writes the
 * same bytes as the same job on Beam's DirectRunner ({@code --runner direct}), in every output:
 * on two text traces at once, with sample filters, on a perf.data file (native reader, and perf
 * script's pieces), on archives, and with a trace that cannot be analyzed (exit 2 both ways).
 */
class LocalAnalysisTest {
  @TempDir Path dir;

  @Test
  void twoTracesGiveTheSameOutputsAsTheDirectRunner() throws IOException {
    same(List.of(), true, E2e.trace("phases").toString(), E2e.trace("stalls").toString());
  }

  @Test
  void sampleFiltersGiveTheSameOutputsAsTheDirectRunner() throws IOException {
    same(List.of("--time", "10%-60%", "--load", "1:2", "--cpu", "0"), false,
        E2e.trace("phases").toString());
  }

  /**
   * The shipped perf.data (a per-process recording without switches: exit 2 both ways). The CLI
   * refuses perf.data where perf is missing (perf script may have to decode it), also for the
   * native reader: without perf both runs end before any output.
   */
  @Test
  void perfDataGivesTheSameOutputsAsTheDirectRunner() throws IOException {
    RequiredTools.require(RequiredTools.Tool.PERF);
    same(List.of(), false, shippedPerfData().toString());
  }

  /**
   * The same file decoded by perf script in pieces, which this JVM decodes in parallel. perf
   * 6.1 refuses this per-process file's cpu field: a failed job both ways (exit 1).
   */
  @Test
  void perfDataThroughPerfScriptGivesTheSameOutputsAsTheDirectRunner() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF);
    same(List.of("--perf-data-reader", "perf-script"), false, shippedPerfData().toString());
  }

  private Path shippedPerfData() throws IOException {
    Path data = dir.resolve("tiny-mixed.data");
    try (InputStream in = new GZIPInputStream(
        LocalAnalysisTest.class.getResourceAsStream("/perfdata/tiny-mixed.data.gz"))) {
      Files.copy(in, data);
    }
    return data;
  }

  /** An archive of two runs, analyzed with a trace; and the same run archived twice. */
  @Test
  void archivesGiveTheSameOutputsAsTheDirectRunner() throws IOException {
    Path archive = dir.resolve("archive");
    for (String trace : List.of("phases", "stalls")) {
      E2e.cli("archive", "--out", archive.toString(), E2e.trace(trace).toString()).assertOk();
    }
    same(List.of(), true, archive.toString(), E2e.trace("stalls_busy").toString());
    Path again = dir.resolve("again");
    Path copy = dir.resolve("phases-copy.txt.gz");
    Files.copy(E2e.trace("phases"), copy);
    E2e.cli("archive", "--out", again.toString(), E2e.trace("phases").toString()).assertOk();
    E2e.cli("archive", "--out", again.toString(), copy.toString()).assertOk();
    same(List.of(), true, again.toString());
  }

  @Test
  void anUnusableTraceIsExitTwoBothWays() throws IOException {
    Path empty = dir.resolve("empty.txt");
    Files.writeString(empty, "not a perf script line\n", StandardCharsets.UTF_8);
    E2e.Cli local = run("local", List.of(), E2e.trace("phases").toString(), empty.toString());
    E2e.Cli direct = run("direct", List.of("--runner", "direct"), E2e.trace("phases").toString(),
        empty.toString());
    assertEquals(direct.exit(), local.exit(), local.stderr());
    assertEquals(direct.stdout().replace(direct.out().toString(), "OUT"),
        local.stdout().replace(local.out().toString(), "OUT"));
  }

  private void same(List<String> options, boolean manyRuns, String... traces)
      throws IOException {
    List<String> direct = new ArrayList<>(List.of("--runner", "direct"));
    direct.addAll(options);
    E2e.Cli b = run("direct", direct, traces);
    E2e.Cli a = run("local", options, traces);
    assertEquals(b.exit(), a.exit(), a.stderr());
    if (b.exit() != 0 && b.exit() != 2) { // failed both ways: told by whichever piece failed first
      assertTrue(a.stderr().startsWith("loadprof: the job failed: " + traces[0]), a.stderr());
      assertTrue(b.stderr().startsWith("loadprof: the job failed: " + traces[0]), b.stderr());
      return;
    }
    assertSameConsoleAndFiles(b, a, Reports.fileNames(manyRuns));
  }

  /** The same console (the output directory's name aside) and the same bytes in each file. */
  static void assertSameConsoleAndFiles(E2e.Cli b, E2e.Cli a, Iterable<String> files) {
    assertEquals(b.stderr().replace(b.out().toString(), "OUT"),
        a.stderr().replace(a.out().toString(), "OUT"));
    assertEquals(b.stdout().replace(b.out().toString(), "OUT"),
        a.stdout().replace(a.out().toString(), "OUT"));
    for (String file : files) {
      byte[] x = b.bytes(file);
      byte[] y = a.bytes(file);
      if (!Arrays.equals(x, y) && !file.endsWith(".gz")) {
        assertEquals(new String(x, StandardCharsets.UTF_8), new String(y, StandardCharsets.UTF_8),
            file);
      }
      assertArrayEquals(x, y, file);
    }
  }

  private E2e.Cli run(String name, List<String> options, String... traces) throws IOException {
    Path out = Files.createDirectories(dir.resolve(name));
    List<String> args = new ArrayList<>(options);
    args.addAll(List.of(traces));
    return E2e.analyze(out, args.toArray(new String[0]));
  }
}
