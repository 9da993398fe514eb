package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run leaves its temp dir as it found it, on both runners and when stopped: embedded Flink
 * left a 22 MB RPC jar and a mini-cluster directory behind at every run (a CI machine's /tmp
 * filled up with them), and nightly jobs run for years.
 */
class TempFilesIT {
  private static final String EXAMPLE = "/examples/phases.txt.gz";

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"flink", "direct"})
  void aFinishedRunLeavesNothing(String runner) throws Exception {
    Path temp = Files.createDirectory(dir.resolve("temp-" + runner));
    CliProcess.Result r = analyze(temp, "--runner", runner);
    assertEquals(0, r.code(), r.output());
    assertEquals(List.of(), entries(temp));
  }

  @Test
  void aRunStoppedMidwayLeavesNothing() throws Exception {
    Path temp = Files.createDirectory(dir.resolve("temp"));
    Path log = dir.resolve("stopped.log");
    Process p = CliProcess.start(Map.of(), List.of("-Djava.io.tmpdir=" + temp), log, "analyze",
        "--runner", "flink", "--out", dir.resolve("out-stopped").toString(),
        Fixture.file(EXAMPLE).toString());
    // Stop it once Flink has put its files there (the RPC jar comes first), as a scheduler's
    // timeout or Ctrl-C would.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!hasFlinkFiles(temp) && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(p.isAlive(), "the run ended before it could be stopped; see " + log);
    p.destroy(); // SIGTERM
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running 60 s after SIGTERM");
    assertEquals(List.of(), entries(temp));
  }

  private CliProcess.Result analyze(Path temp, String... runner) throws Exception {
    Path log = dir.resolve("run.log");
    List<String> args = new java.util.ArrayList<>(List.of("analyze"));
    args.addAll(List.of(runner));
    args.addAll(List.of("--out", dir.resolve("out-" + runner[1]).toString(),
        Fixture.file(EXAMPLE).toString()));
    return CliProcess.finish(CliProcess.start(Map.of(), List.of("-Djava.io.tmpdir=" + temp),
        log, args.toArray(new String[0])), log);
  }

  private static boolean hasFlinkFiles(Path temp) throws IOException {
    try (Stream<Path> all = Files.walk(temp)) {
      return all.anyMatch(f -> f.getFileName().toString().startsWith("flink-rpc"));
    }
  }

  private static List<String> entries(Path temp) throws IOException {
    try (Stream<Path> all = Files.walk(temp)) {
      return all.filter(f -> !f.equals(temp)).map(f -> temp.relativize(f).toString()).sorted()
          .toList();
    }
  }
}
