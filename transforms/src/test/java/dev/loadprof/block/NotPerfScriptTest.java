package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's early check of a trace agrees with what the parse step would say of the file. */
class NotPerfScriptTest {
  private static final long WINDOW_NS = 1_000_000_000L;
  private static final String SWITCH = "swapper     0/0     [000]     1.000000000:          1"
      + " sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R"
      + " ==> next_comm=app next_pid=11 next_prio=120\n\n";

  @TempDir Path dir;

  /** The verdict and counts of reading the whole file, as the parse step does. */
  private static RunInfo readWhole(Path file) throws IOException {
    try (InputStream in = TraceFiles.open(file)) {
      return InMemoryAnalysis.of(new PerfScriptParser(), in, file.toString(), WINDOW_NS).run;
    }
  }

  private static Optional<RunInfo> check(Path file) {
    return NotPerfScript.check(file, "run", file.toString(), WINDOW_NS);
  }

  private Path garbage(String name, String tail) throws IOException {
    Random r = new Random(7);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      for (int j = r.nextInt(80); j >= 0; j--) {
        text.append((char) (' ' + r.nextInt(95)));
      }
      text.append('\n');
    }
    text.append(tail);
    Path file = dir.resolve(name);
    try (OutputStream out = name.endsWith(".gz")
        ? new GZIPOutputStream(Files.newOutputStream(file)) : Files.newOutputStream(file)) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    return file;
  }

  @Test
  void garbageGetsTheParseStepsVerdictAndCounts() throws IOException {
    for (String name : new String[] {"garbage.txt", "garbage.txt.gz"}) {
      Path file = garbage(name, "");
      RunInfo early = check(file).orElseThrow();
      RunInfo whole = readWhole(file);
      assertTrue(whole.isUnusable());
      assertEquals(whole.unusableReason, early.unusableReason);
      assertEquals(whole.health.get(TraceHealth.MALFORMED_LINES),
          early.health.get(TraceHealth.MALFORMED_LINES));
      assertEquals(whole.warnings, early.warnings);
      assertTrue(early.unusableReason.contains("no perf samples or sched_switch records found ("
          + whole.health.get(TraceHealth.MALFORMED_LINES) + " unreadable lines)"),
          early.unusableReason);
    }
  }

  @Test
  void randomBytesAreNotPerfScript() throws IOException {
    Path file = dir.resolve("random.bin");
    byte[] bytes = new byte[200_000];
    new Random(3).nextBytes(bytes);
    Files.write(file, bytes);
    assertEquals(readWhole(file).unusableReason, check(file).orElseThrow().unusableReason);
  }

  @Test
  void oneRecordAfterTheGarbageLeavesTheFileToTheJob() throws IOException {
    assertFalse(check(garbage("late.txt", SWITCH)).isPresent());
  }

  @Test
  void realTracesAreLeftToTheJob() {
    for (String trace : new String[] {"mixed.txt.gz", "phases_plain.txt.gz"}) {
      Path file = Paths.get("src/test/resources/traces", trace);
      assertTrue(Files.isRegularFile(file), file.toString());
      assertFalse(check(file).isPresent(), trace);
    }
  }

  @Test
  void aMissingFileIsLeftToTheCallersChecks() {
    assertFalse(check(dir.resolve("missing.txt")).isPresent());
  }
}
