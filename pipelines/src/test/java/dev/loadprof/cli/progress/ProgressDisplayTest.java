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
import java.util.concurrent.atomic.AtomicLong;
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

  /** A display on a clock of the test's own, ticked by hand: no sleeps, no timer threads. */
  private static ProgressDisplay onClock(boolean enabled, PrintStream err, AtomicLong nanos) {
    return ProgressDisplay.start(enabled, false, err, ProgressView.LOCAL, () -> { },
        nanos::get, false);
  }

  private static final long SECOND = 1_000_000_000L;

  @Test
  void drawsTheStagePercentRateAndEstimateAfterTwoSeconds() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    AtomicLong clock = new AtomicLong(7 * SECOND); // any origin
    try (ProgressDisplay display = onClock(true, err, clock)) {
      JobProgress.addTotal(Stage.READING, 400L << 20);
      JobProgress.advance(Stage.READING, 100L << 20);
      JobProgress.advanceText(300L << 20); // compressed 1:3
      clock.addAndGet(ProgressDisplay.SHOW_AFTER_MS * 1_000_000L - 1);
      display.tick();
      assertEquals("", drawn(bytes), "a job younger than 2 s draws nothing");
      clock.addAndGet(1);
      JobProgress.advance(Stage.READING, 100L << 20);
      JobProgress.advanceText(300L << 20);
      display.tick();
      String line = drawn(bytes);
      assertThat(line, containsString("\rreading  50% ["));
      // The text, not the compressed input, over the 2 s since the reading began
      assertThat(line, containsString("600.0 MB read, 300.0 MB/s"));
      assertThat(line, containsString("elapsed 0:02, left 0:02"));
      clock.addAndGet(SECOND);
      JobProgress.advance(Stage.READING, 100L << 20);
      JobProgress.advanceText(300L << 20);
      display.tick();
      line = drawn(bytes);
      assertThat(line, containsString("\rreading  75% ["));
      assertThat(line, containsString("900.0 MB read, 300.0 MB/s")); // 900 MB of text in 3 s
      assertThat(line, containsString("elapsed 0:03, left 0:01")); // 100 MB of input left
      assertFalse(line.contains("\n"), "redrawn in place: " + line);
      JobProgress.expect(Stage.JOINING, 10);
      JobProgress.advance(Stage.JOINING, 4);
      clock.addAndGet(ProgressDisplay.REDRAW_MS * 1_000_000L);
      display.tick();
    }
    String all = drawn(bytes);
    assertThat(all, containsString("\n\rjoining  40% [")); // in a file a stage keeps its line
    assertThat(all, containsString("4/10 blocks"));
    assertTrue(all.endsWith("\n"), "the console's next line starts on a line of its own");
  }

  @Test
  void inAFileAStageThatEndedBetweenRedrawsKeepsTheLineOfItsEnd() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    AtomicLong clock = new AtomicLong();
    try (ProgressDisplay display = onClock(true, err, clock)) {
      JobProgress.addTotal(Stage.READING, 400L << 20);
      JobProgress.advanceText(100L << 20);
      clock.addAndGet(2 * SECOND);
      JobProgress.advance(Stage.READING, 100L << 20);
      display.tick();
      assertThat(drawn(bytes), containsString("\rreading  25% ["));
      err.println("[INFO] a log line"); // the reader's count line, between two redraws
      clock.addAndGet(SECOND / 2);
      JobProgress.advanceText(700L << 20);
      JobProgress.advance(Stage.READING, 300L << 20); // 800 MB of text in 2.5 s
      JobProgress.expect(Stage.JOINING, 4);
      JobProgress.advance(Stage.JOINING, 0);
      clock.addAndGet(SECOND / 2);
      JobProgress.advance(Stage.JOINING, 4); // 4 blocks in 0.5 s, never on a redraw
      JobProgress.addTotal(Stage.WRITING, 2);
      clock.addAndGet(SECOND / 4);
      display.tick();
      clock.addAndGet(SECOND);
    }
    String all = drawn(bytes);
    assertThat(all, containsString("[INFO] a log line\n\rreading 100% ["));
    assertThat(all, containsString("800.0 MB read, 320.0 MB/s, elapsed 0:02, left 0:00\n"));
    assertThat(all, containsString("left 0:00\n\rjoining 100% ["));
    assertThat(all, containsString("4/4 blocks, 8.0 blocks/s, elapsed 0:03, left 0:00\n"));
    assertThat(all, containsString("\rwriting   0% ["));
  }

  @Test
  void onATerminalOneLineIsRedrawnThroughTheStagesAndErasedAtTheEnd() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    AtomicLong clock = new AtomicLong();
    try (ProgressDisplay display = ProgressDisplay.start(true, true, err, ProgressView.LOCAL,
        () -> { }, clock::get, false)) {
      assertTrue(JobProgress.isDrawnOnTerminal(), "the readers' count lines stay out of it");
      JobProgress.addTotal(Stage.READING, 100);
      JobProgress.advance(Stage.READING, 50);
      clock.addAndGet(3 * SECOND);
      display.tick();
      JobProgress.advance(Stage.READING, 50);
      JobProgress.expect(Stage.JOINING, 10);
      JobProgress.advance(Stage.JOINING, 4);
      clock.addAndGet(SECOND);
      display.tick();
    }
    String all = drawn(bytes);
    assertFalse(all.contains("\n"), all);
    assertThat(all, containsString("\rjoining  40% ["));
    assertTrue(all.endsWith("\r\033[K"), "the line is erased: " + all);
    assertFalse(JobProgress.isDrawnOnTerminal());
  }

  @Test
  void aTickAfterCloseDrawsNothing() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    AtomicLong clock = new AtomicLong();
    ProgressDisplay display = onClock(true, err, clock);
    JobProgress.addTotal(Stage.READING, 100);
    clock.addAndGet(10 * SECOND);
    display.close();
    display.tick(); // one that was on its way when the job ended
    assertEquals("", drawn(bytes));
  }

  @Test
  void drawsNothingWhenOff() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    AtomicLong clock = new AtomicLong();
    try (ProgressDisplay display = onClock(false, err, clock)) {
      JobProgress.addTotal(Stage.READING, 100);
      JobProgress.advance(Stage.READING, 50);
      clock.addAndGet(10 * SECOND);
      display.tick();
    }
    assertEquals("", drawn(bytes));
    // Off (--quiet, a pipe) is the console's choice too: the readers log no progress lines.
    assertTrue(JobProgress.isShownOnConsole());
  }

  @Test
  void theTickerRedrawsOnItsOwnOnTheSystemClock() throws Exception {
    // The one test of the real timer: only that it ticks at all, with no bound on the time.
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    AtomicLong clock = new AtomicLong();
    try (ProgressDisplay display = ProgressDisplay.start(true, false, err, ProgressView.LOCAL,
        () -> { }, () -> clock.addAndGet(SECOND), true)) {
      JobProgress.addTotal(Stage.READING, 100);
      JobProgress.advance(Stage.READING, 50);
      for (int i = 0; i < 600 && drawn(bytes).isEmpty(); i++) {
        Thread.sleep(50);
      }
      assertThat(drawn(bytes), containsString("reading"));
    }
  }
}
