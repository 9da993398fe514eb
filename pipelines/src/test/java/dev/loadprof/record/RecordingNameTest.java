package dev.loadprof.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loadprof.compare.Nights;
import dev.loadprof.parse.RunIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each recording of loadprof record gets a file of its own, named for the program and the UTC
 * time it started, which gives its run id, benchmark and night; a name is never taken twice.
 */
class RecordingNameTest {
  private static final Instant START = Instant.parse("2026-11-27T22:45:30.250Z");

  @TempDir Path dir;

  @Test
  void theProgramAndTheUtcStartTimeNameTheRecording() {
    assertEquals("prog-20261127-224530", RecordingName.stem("./bin/prog", null, START));
    assertEquals("prog-20261127-224530", RecordingName.stem("prog", null, START));
  }

  @Test
  void theNameIsTheRunIdTheBenchmarkAndTheNight() {
    String runId = RunIds.of(dir.resolve(RecordingName.stem("prog", null, START) + ".data")
        .toString());
    assertEquals("prog-20261127-224530", runId);
    assertEquals("prog", Nights.benchmarkOf(runId));
    assertEquals(LocalDate.of(2026, 11, 27), Nights.fromRunId(runId));
  }

  @Test
  void nameChoosesTheStem() {
    assertEquals("base-1", RecordingName.stem("prog", "base-1", START));
    assertEquals("base-1", RecordingName.stem("prog", "base-1.data", START));
    for (String bad : new String[] {"", " ", "a/b", "..", "-x"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RecordingName.stem("prog", bad, START), bad);
      assertEquals(true, e.getMessage().contains("--name"), e.getMessage());
    }
  }

  @Test
  void aTakenNameIsNeverOverwritten() throws IOException {
    Path first = RecordingName.claim(dir, "prog-20261127-224530");
    Files.writeString(first, "the first recording");
    Path second = RecordingName.claim(dir, "prog-20261127-224530");
    Path third = RecordingName.claim(dir, "prog-20261127-224530");
    assertEquals(dir.resolve("prog-20261127-224530.data"), first);
    assertEquals(dir.resolve("prog-20261127-224530-2.data"), second);
    assertEquals(dir.resolve("prog-20261127-224530-3.data"), third);
    assertEquals("the first recording", Files.readString(first));
    assertEquals(0, Files.size(second)); // claimed empty: perf record writes into it in place
    assertEquals("prog", Nights.benchmarkOf(RunIds.of(third.toString())));
  }

  @Test
  void theOutputDirectoryIsMadeWhenMissing() throws IOException {
    Path data = RecordingName.claim(dir.resolve("a/b"), "x");
    assertEquals(dir.resolve("a/b/x.data"), data);
  }
}
