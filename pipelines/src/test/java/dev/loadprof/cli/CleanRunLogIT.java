package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.pipelines.Fixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged CLI as ./loadprof runs it (loadprof.jar + target/lib, a JVM of its own): a clean
 * run on embedded Flink shows loadprof's lines, not the frameworks' warnings; --verbose shows
 * them. Also checks that the build shipped the completion script.
 */
class CleanRunLogIT {
  @TempDir
  Path tmp;

  record Child(int exit, String stdout, String stderr) {
    long warnLines() {
      return stderr.lines().filter(l -> l.contains("WARN")).count();
    }
  }

  @Test
  void cleanFlinkRunPrintsAtMostThreeWarnLines() throws Exception {
    Child quiet = loadprof("analyze", "--runner", "flink", "--parallelism", "2", "-o",
        tmp.resolve("quiet").toString(), Fixture.file("/examples/phases.txt.gz").toString());
    assertEquals(0, quiet.exit(), quiet.stderr());
    System.out.println("clean --runner flink run: " + quiet.warnLines() + " WARN lines, "
        + quiet.stderr().lines().count() + " stderr lines");
    assertThat(quiet.stderr(), quiet.warnLines(), lessThanOrEqualTo(3L));
    assertThat(quiet.stdout(), containsString("Outputs in "));

    // The same run with --verbose shows the frameworks' lines: the quiet count is the filter's
    // doing, not a run that had nothing to say.
    Child verbose = loadprof("analyze", "--verbose", "--runner", "flink", "--parallelism", "2",
        "-o", tmp.resolve("verbose").toString(),
        Fixture.file("/examples/phases.txt.gz").toString());
    assertEquals(0, verbose.exit(), verbose.stderr());
    assertThat(verbose.warnLines(), greaterThan(3L));
  }

  @Test
  void buildShipsTheCompletionScript() throws Exception {
    Path script = Path.of("target", "loadprof_completion");
    String text = Files.readString(script);
    assertThat(text, containsString("complete -F"));
    assertThat(text, containsString("analyze"));
  }

  private Child loadprof(String... args) throws Exception {
    Path home = Path.of("").toAbsolutePath().getParent();
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dloadprof.home=" + home,
        "-cp", "target/loadprof.jar" + java.io.File.pathSeparator + "target/lib/*",
        LoadprofCli.class.getName()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(tmp, "child", ".out");
    Path err = Files.createTempFile(tmp, "child", ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("loadprof timed out: " + cmd);
    }
    return new Child(p.exitValue(), Files.readString(out), Files.readString(err));
  }
}
