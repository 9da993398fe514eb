package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk is one line on the console, wherever it fills: --out on the DirectRunner and on
 * embedded Flink (whose own failure logs were ~200 lines), and a temp dir too full to start in.
 * The full disk is a 64 KB tmpfs mounted by the test (root only; skipped elsewhere).
 */
class FullDiskIT {
  @TempDir static Path dir;
  static Path full;

  @BeforeAll
  static void mountTinyDisk() throws Exception {
    RequiredTools.requireRoot("mounting the tiny tmpfs needs it");
    full = Files.createDirectory(dir.resolve("full"));
    assertTrue(run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", full.toString()) == 0,
        "cannot mount a tmpfs here (needs root)");
  }

  @AfterAll
  static void unmount() throws Exception {
    if (full != null) {
      run("umount", full.toString());
    }
  }

  private static int run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }

  private static final String EXAMPLE = "/examples/phases.txt.gz";

  @Test
  void aFullOutDiskIsOneLine() {
    Cli cli = E2e.cli("analyze", "--out", full.resolve("direct").toString(),
        Fixture.file(EXAMPLE).toString());
    assertEquals(1, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString("loadprof: the job failed: no space left on device"));
    assertEquals(1, cli.stderr().lines().count(), cli.stderr());
  }

  @Test
  void aFullOutDiskOnEmbeddedFlinkIsOneLine() throws Exception {
    Path log = dir.resolve("flink.log");
    CliProcess.Result r = CliProcess.run(Map.of(), log, "analyze", "--runner", "flink",
        "--out", full.resolve("flink").toString(), Fixture.file(EXAMPLE).toString());
    assertEquals(1, r.code(), r.output());
    List<String> lines = r.output().lines().filter(l -> !l.startsWith("[INFO]")).toList();
    assertEquals(1, lines.size(), r.output());
    assertThat(lines.get(0), containsString("loadprof: the job failed: no space left on device"));
  }

  @Test
  void aFullTempDirIsOneLineBeforeTheJob() throws Exception {
    Path log = dir.resolve("temp.log");
    CliProcess.Result r = CliProcess.finish(CliProcess.start(Map.of(),
        List.of("-Djava.io.tmpdir=" + full), log, "analyze", "--out",
        dir.resolve("out").toString(), Fixture.file(EXAMPLE).toString()), log);
    assertEquals(1, r.code(), r.output());
    assertEquals(1, r.output().lines().count(), r.output());
    assertThat(r.output(), containsString("loadprof: the temp dir " + full + " has "));
  }
}
