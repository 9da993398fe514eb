package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.TerminalJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An archive job on the DirectRunner that runs out of heap, through the launcher as a user runs
 * it: it fails with the heap's one line and exit 1, every time, never waits and never ends as
 * done. The runner can lose its worker's error: an archive of a 1.6 GB trace then waited 6
 * minutes until killed, and with the runner's run() not blocking, 6 of 6 of these tries lost it
 * (3 waited, 3 exited 0 with "0 runs added"; bench/RESULTS.md section 40). The heap is made
 * small, and Beam's model checks (copies of every element) are asked for, so that a 110 MB trace
 * runs out of it.
 */
class OutOfHeapIT {
  private static final Path LAUNCHER = Paths.get("..", "loadprof").toAbsolutePath().normalize();

  @TempDir static Path dir;
  static Path trace;

  @BeforeAll
  static void writeTrace() throws Exception {
    trace = TerminalJob.writeLongTrace(dir.resolve("big.txt"), 2);
  }

  @ParameterizedTest(name = "try {0}")
  @ValueSource(ints = {1, 2, 3})
  void anArchiveThatRunsOutOfHeapFailsInOneLine(int attempt) throws Exception {
    Path archive = dir.resolve("archive-" + attempt);
    ProcessBuilder b = new ProcessBuilder("bash", LAUNCHER.toString(), "archive", "--quiet",
        "--out", archive.toString(), trace.toString(), "--enforceImmutability=true",
        "--enforceEncodability=true");
    b.environment().put("LOADPROF_JAVA_OPTS", "-Xmx128m");
    b.environment().put("TMPDIR", dir.toString());
    b.redirectErrorStream(true).redirectOutput(dir.resolve("log-" + attempt).toFile());
    Process p = b.start();
    p.getOutputStream().close();
    boolean ended = p.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
    }
    String log = Files.readString(dir.resolve("log-" + attempt));
    assertTrue(ended, "the job waited for 3 minutes after running out of heap:\n" + log);
    assertEquals(1, p.exitValue(), log);
    assertThat(log, containsString("loadprof: the job ran out of memory ("));
    assertThat(log, containsString("LOADPROF_JAVA_OPTS=-Xmx"));
    assertThat(log, not(containsString("Archived into")));
    try (Stream<Path> left = Files.list(dir)) { // the JVM's out-of-heap file is removed at exit
      assertEquals(0, left.filter(f -> f.getFileName().toString().startsWith("loadprof-oom-"))
          .count());
    }
  }
}
