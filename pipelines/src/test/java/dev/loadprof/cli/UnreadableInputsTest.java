package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that cannot be read as a trace are exit 2 and one line at once, where they hung (a FIFO
 * nothing writes, /dev/zero); the streams that a program writes (a shell's {@code <(zcat x)},
 * stdin, a FIFO with its writer) are read as before. See UnreadableTraceIT for a file this user
 * may not read.
 */
class UnreadableInputsTest {
  /** Far above the FIFO's grace: a hang fails here instead of holding the build. */
  private static final Duration AT_ONCE = Duration.ofSeconds(60);
  private static final Path PHASES =
      Paths.get("..", "examples", "phases.txt.gz").toAbsolutePath().normalize();

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  private Run analyze(String input) {
    return assertTimeoutPreemptively(AT_ONCE, () -> {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int exit = LoadprofCli.run(new String[] {"analyze", "-q", "-o",
          tmp.resolve("out").toString(), input}, new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      return new Run(exit, out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    });
  }

  private static void oneLine(Run run, String says) {
    assertEquals(ExitCode.BAD_INPUT, run.exit(), run.err());
    List<String> lines = run.err().lines().toList();
    assertEquals(1, lines.size(), run.err());
    assertThat(lines.get(0), containsString(says));
  }

  @Test
  void devZeroIsOneLineAtOnce() {
    oneLine(analyze("/dev/zero"), "loadprof: /dev/zero is a character device");
  }

  @Test
  void aFifoThatNothingWritesIsOneLineAtOnce() throws Exception {
    Path fifo = tmp.resolve("trace.fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    oneLine(analyze(fifo.toString()), fifo + " is a FIFO that no program writes");
  }

  /** The shell's pipes have a writer: bash runs loadprof with {@code <(zcat x)} and with stdin. */
  @Test
  void aShellsPipesAreReadAsBefore() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    String cli = java + " -cp '" + System.getProperty("java.class.path") + "' "
        + LoadprofCli.class.getName() + " analyze -q";
    for (String command : List.of(
        cli + " -o " + tmp.resolve("subst") + " <(zcat " + PHASES + ")",
        "zcat " + PHASES + " | " + cli + " -o " + tmp.resolve("stdin") + " -")) {
      Process bash = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
      String said = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(bash.waitFor(5, TimeUnit.MINUTES), command);
      assertEquals(0, bash.exitValue(), command + "\n" + said);
      assertThat(said, containsString("15061 sample records"));
    }
    assertTrue(Files.isRegularFile(tmp.resolve("subst").resolve("summary.json")));
    assertTrue(Files.isRegularFile(tmp.resolve("stdin").resolve("summary.json")));
  }
}
