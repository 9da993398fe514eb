package dev.loadprof.cli.progress;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.progress.JobProgress;
import dev.loadprof.progress.JobProgress.Stage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the progress line is shown (a terminal, --progress, never with --quiet) and what it
 * draws: nothing in a job's first 2 s, then the stage, done of total, a rate and an estimate.
 */
class ProgressDisplayTest {
  @TempDir Path dir;

  @Test
  void shownOnATerminalOrWhenAskedAndNeverWhenQuiet() {
    ProgressOptions options = new ProgressOptions();
    assertTrue(options.enabled(true));
    assertFalse(options.enabled(false));
    options.progress = true;
    assertTrue(options.enabled(false));
    options.quiet = true;
    assertFalse(options.enabled(true));
    assertFalse(options.enabled(false));
  }

  @Test
  void aTerminalIsAPseudoTerminalOrTtyDevice() throws Exception {
    assertTrue(Terminal.isTerminal(Files.createSymbolicLink(dir.resolve("pts"),
        Path.of("/dev/pts/7"))));
    assertTrue(Terminal.isTerminal(Files.createSymbolicLink(dir.resolve("tty"),
        Path.of("/dev/tty1"))));
    assertFalse(Terminal.isTerminal(Files.createSymbolicLink(dir.resolve("pipe"),
        Path.of("pipe:[12345]"))));
    assertFalse(Terminal.isTerminal(Files.writeString(dir.resolve("file"), "")));
  }

  private static String drawn(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void drawsTheStageDoneOfTotalRateAndEstimateAfterTwoSeconds() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ProgressDisplay display = ProgressDisplay.start(true, false, err)) {
      JobProgress.addTotal(Stage.READING, 400L << 20);
      JobProgress.advance(Stage.READING, 100L << 20);
      Thread.sleep(ProgressDisplay.SHOW_AFTER_MS - 800);
      assertEquals("", drawn(bytes), "a short job draws nothing");
      Thread.sleep(1_600);
      JobProgress.advance(Stage.READING, 100L << 20);
      Thread.sleep(1_200);
      String line = drawn(bytes);
      assertThat(line, containsString("\rreading"));
      assertThat(line, containsString("/400 MB"));
      assertThat(line, containsString("MB/s"));
      assertThat(line, containsString(" / 0:00:0")); // elapsed / estimate
      JobProgress.expect(Stage.JOINING, 10);
      JobProgress.advance(Stage.JOINING, 4);
      Thread.sleep(800);
    }
    String all = drawn(bytes);
    assertThat(all, containsString("\n\rjoining")); // the finished stage keeps its line
    assertThat(all, containsString("4/10 blocks"));
    assertTrue(all.endsWith("\n"), "the console's next line starts on a line of its own");
  }

  @Test
  void drawsNothingWhenOff() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ProgressDisplay display = ProgressDisplay.start(false, false, err)) {
      JobProgress.addTotal(Stage.READING, 100);
      JobProgress.advance(Stage.READING, 50);
      Thread.sleep(ProgressDisplay.SHOW_AFTER_MS + 600);
    }
    assertEquals("", drawn(bytes));
    // Off (--quiet, a pipe) is the console's choice too: the readers log no progress lines.
    assertTrue(JobProgress.isShownOnConsole());
  }
}
