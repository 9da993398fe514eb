package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.TerminalJob;
import dev.loadprof.testtools.RequiredTools;
import dev.loadprof.testtools.RequiredTools.Tool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line as a user sees it: ./loadprof analyze in a tmux pane 80 columns wide, on a
 * job of over 10 s. While it runs the pane holds at most one progress line, never wider than
 * the pane; at the end it holds none, nor the readers' [INFO] lines: only the summary.
 */
class ProgressTerminalIT {
  private static final Path LAUNCHER = Paths.get("..", "loadprof").toAbsolutePath().normalize();
  private static final int COLUMNS = 80;
  /** The trace arrives in parts a second apart: the job lasts over PARTS seconds. */
  private static final int PARTS = 12;
  private static final Pattern PROGRESS =
      Pattern.compile("^(submitting|decoding|reading|joining|writing|running)\\b.*");
  private static final String DONE = "LOADPROF-EXIT=";

  @TempDir Path dir;

  @Test
  void oneLineFitsEightyColumnsAndOnlyTheSummaryStays() throws Exception {
    Path tmux = RequiredTools.require(Tool.TMUX);
    Path trace = TerminalJob.writeLongTrace(dir.resolve("long.txt"));
    StringBuilder feed = new StringBuilder("unset COLUMNS; ")
        .append(TerminalJob.slowFeed(trace, PARTS, dir)).append(" | bash ").append(LAUNCHER).append(" analyze -o ").append(dir.resolve("out"))
        .append(" -; echo ").append(DONE).append("$?; sleep 600");
    String socket = "loadprof-progress-" + ProcessHandle.current().pid();
    Tmux pane = new Tmux(tmux, socket);
    try {
      pane.run("new-session", "-d", "-x", String.valueOf(COLUMNS), "-y", "50",
          feed.toString());
      long start = System.nanoTime();
      int drawn = 0;
      List<String> seen = new ArrayList<>();
      String screen;
      do {
        Thread.sleep(500);
        screen = pane.run("capture-pane", "-p", "-J"); // -J: a wrapped line is one line
        List<String> progress = screen.lines().filter(l -> PROGRESS.matcher(l).matches())
            .toList();
        assertThat(screen, progress.size(), lessThan(2));
        for (String line : progress) {
          assertThat(line, line.length(), lessThan(COLUMNS));
          seen.add(line);
          drawn++;
        }
        assertTrue(System.nanoTime() - start < 300_000_000_000L, "no end in 5 min:\n" + screen);
      } while (!screen.contains(DONE));
      long jobSeconds = (System.nanoTime() - start) / 1_000_000_000L;
      System.out.printf("%d s, %d captures with a progress line, e.g. %s%n", jobSeconds, drawn,
          seen.isEmpty() ? "-" : seen.get(seen.size() / 2));
      assertThat(jobSeconds, greaterThanOrEqualTo(10L));
      assertThat("a progress line was drawn", drawn, greaterThan(5));
      assertThat(seen.toString(), containsString(" MB read"));
      assertThat(seen.toString(), containsString("elapsed 0:"));
      String history = pane.run("capture-pane", "-p", "-J", "-S", "-");
      assertThat(history, containsString(DONE + "0"));
      assertThat(history, containsString("Real time at load:"));
      assertThat(history, containsString("Outputs in "));
      assertThat(history, not(containsString("[INFO]")));
      assertEquals(List.of(), history.lines().filter(l -> PROGRESS.matcher(l).matches())
          .toList(), "no progress line stays:\n" + history);
    } finally {
      pane.run("kill-server");
    }
  }

  /** The tmux server of this test alone (its own socket), so no user session is touched. */
  private record Tmux(Path tmux, String socket) {
    String run(String... args) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of(tmux.toString(), "-L", socket, "-f",
          "/dev/null"));
      command.addAll(List.of(args));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      return out;
    }
  }
}
