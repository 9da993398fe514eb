package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ./loadprof launcher's choices by input size, read from its dry run
 * (LOADPROF_DRY_RUN=1 prints the java command and changes nothing): C1 and the serial collector
 * for the small example, embedded Flink with a console line from ~512 MB of text, and the
 * user's --runner always wins. Big inputs are sparse files: only their size is read.
 */
class LauncherTest {
  private static final Path LAUNCHER = Paths.get("..", "loadprof").toAbsolutePath().normalize();
  private static final String EXAMPLE =
      Paths.get("..", "examples", "phases.txt.gz").toAbsolutePath().normalize().toString();

  @TempDir Path dir;

  record DryRun(String command, String console) {}

  private static DryRun dryRun(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command);
    b.environment().put("LOADPROF_DRY_RUN", "1");
    b.environment().remove("LOADPROF_JAVA_OPTS");
    Process p = b.start();
    assertEquals(true, p.waitFor(60, TimeUnit.SECONDS), "the launcher's dry run hung");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), err);
    return new DryRun(out.trim(), err);
  }

  private Path sparse(String name, long bytes) throws IOException {
    Path file = dir.resolve(name);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(bytes);
    }
    return file;
  }

  @Test
  void theExampleStartsWithC1AndTheSerialCollectorOnTheDirectRunner() throws Exception {
    DryRun run = dryRun("analyze", "-o", dir.resolve("out").toString(), EXAMPLE);
    assertThat(run.command(), containsString("-XX:TieredStopAtLevel=1"));
    assertThat(run.command(), containsString("-XX:+UseSerialGC"));
    assertThat(run.command(), containsString("LoadprofCli analyze -o"));
    assertThat(run.command(), not(containsString("--runner")));
    assertEquals("", run.console());
  }

  @Test
  void aSmallAnalyzeOnTheDirectRunnerLeavesFlinksJarsOut() throws Exception {
    for (String[] runner : new String[][] {{}, {"--runner", "direct"}, {"--runner=direct"}}) {
      List<String> args = new ArrayList<>(List.of("analyze"));
      args.addAll(List.of(runner));
      args.add(EXAMPLE);
      String command = dryRun(args.toArray(new String[0])).command();
      if (Files.isDirectory(LAUNCHER.resolveSibling("pipelines/target/lib"))) { // after package
        assertThat(command, containsString("beam-runners-direct-java"));
      }
      assertThat(command, not(containsString("flink")));
      assertThat(command, not(containsString("lib/*")));
    }
  }

  @Test
  void flinkNamedOrAnotherCommandKeepsFlinksJars() throws Exception {
    for (String[] args : new String[][] {{"analyze", "--runner=flink", EXAMPLE},
        {"analyze", "--parallelism=2", EXAMPLE}, {"analyze", "--runner", "flink-cluster", EXAMPLE},
        {"compare", "a", "b"}}) {
      assertThat(String.join(" ", args), dryRun(args).command(), containsString("lib/*"));
    }
  }

  @Test
  void longerRunsLetC2CompileOnlyWhatStaysHot() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    assertThat(dryRun("analyze", big.toString()).command(),
        containsString("-XX:Tier4InvocationThreshold=50000"));
    assertThat(dryRun("analyze", EXAMPLE).command(), not(containsString("Tier4")));
  }

  @Test
  void aBigTraceRunsOnEmbeddedFlinkAndTheConsoleSaysSo() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    DryRun run = dryRun("analyze", big.toString());
    assertThat(run.command(), containsString("LoadprofCli analyze --runner flink " + big));
    assertThat(run.command(), containsString("lib/*"));
    assertThat(run.command(), not(containsString("TieredStopAtLevel")));
    assertThat(run.console(), containsString("about 600 MB of trace text: running on embedded"
        + " Flink (--runner flink)"));
    assertThat(run.console(), containsString("give --runner direct to keep the DirectRunner"));
  }

  @Test
  void theUsersRunnerWins() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    for (String[] runner : new String[][] {{"--runner", "direct"}, {"--runner=direct"}}) {
      List<String> args = new ArrayList<>(List.of("analyze"));
      args.addAll(List.of(runner));
      args.add(big.toString());
      DryRun run = dryRun(args.toArray(new String[0]));
      assertThat(run.command(), not(containsString("--runner flink")));
      assertEquals("", run.console());
    }
  }

  @Test
  void aMidSizedTraceKeepsTheDirectRunnerAndC2() throws Exception {
    Path mid = sparse("mid.txt", 300L << 20);
    DryRun run = dryRun("analyze", mid.toString());
    assertThat(run.command(), not(containsString("TieredStopAtLevel")));
    assertThat(run.command(), not(containsString("--runner")));
  }

  @Test
  void compressedTracesCountAboutTheirText() throws Exception {
    Path gz = sparse("big.txt.gz", 40L << 20); // 16 x 40 MB = 640 MB of text
    assertThat(dryRun("analyze", gz.toString()).command(), containsString("--runner flink"));
    Files.delete(gz);
  }
}
