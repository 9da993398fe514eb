package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure is one line; --debug (before or after the command's name) adds its whole stack
 * trace. Threads nobody waits for fail in one line too, and a thread out of heap fails the job.
 */
class DebugFlagTest {
  @TempDir Path tmp;

  private record Run(int exit, String err) {}

  private static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = LoadprofCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aFailureIsOneLineAndWithDebugItsStackTraceToo() {
    String missing = tmp.resolve("missing.txt.gz").toString();
    Run plain = cli("analyze", "-o", tmp.resolve("o").toString(), missing);
    assertEquals(ExitCode.BAD_INPUT, plain.exit());
    assertEquals(1, plain.err().lines().count(), plain.err());
    assertThat(plain.err(), not(containsString("\tat ")));
    for (String[] args : new String[][] {
        {"analyze", "--debug", "-o", tmp.resolve("o").toString(), missing},
        {"--debug", "analyze", "-o", tmp.resolve("o").toString(), missing}}) {
      Run debug = cli(args);
      assertEquals(ExitCode.BAD_INPUT, debug.exit(), debug.err());
      assertThat(debug.err(), containsString("UsageException: no such trace: " + missing));
      assertThat(debug.err(), containsString("\tat dev.loadprof.cli."));
      assertThat(debug.err(), containsString("loadprof: no such trace: " + missing));
    }
  }

  @Test
  void aTraceNamedDebugAfterTheOptionsIsATrace() {
    Run run = cli("analyze", "-o", tmp.resolve("o").toString(), "--", "--debug");
    assertThat(run.err(), not(containsString("\tat ")));
  }

  private static String handled(Throwable e, boolean debug) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ThreadFailures.handle(new Thread("loadprof-kallsyms"), e,
        new PrintStream(bytes, true, StandardCharsets.UTF_8), debug);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aThreadThatFailsIsOneLineWithoutItsStackTrace() {
    String line = handled(new IllegalStateException("boom"), false);
    assertEquals("loadprof: thread loadprof-kallsyms failed: java.lang.IllegalStateException:"
        + " boom (--debug prints its stack trace)\n", line);
    assertThat(handled(new IllegalStateException("boom"), true), containsString("\tat "));
  }

  @Test
  void aThreadOutOfHeapIsSaidOnceByTheJobOrAtItsEnd() {
    assertEquals("", handled(new OutOfMemoryError("Java heap space"), false));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    // the job failed and said so: nothing more
    assertEquals(ExitCode.JOB_FAILED, ThreadFailures.afterJob(ExitCode.JOB_FAILED, err));
    assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    // the job ended well, but a thread ran out of heap: one line, exit 1
    handled(new OutOfMemoryError("Java heap space"), false);
    assertEquals(ExitCode.JOB_FAILED, ThreadFailures.afterJob(ExitCode.OK, err));
    String said = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(1, said.lines().count(), said);
    assertThat(said, containsString("loadprof: the job ran out of memory (Java heap space"));
    assertEquals(ExitCode.OK, ThreadFailures.afterJob(ExitCode.OK, err), "said once");
  }

  /**
   * A thread's out of heap that no handler saw (a task's, kept in its Future) but the JVM's file
   * tells of: a job that ended well fails with the heap's one line.
   */
  @Test
  void anOutOfHeapOnlyTheJvmsFileTellsOfFailsAJobThatEndedWell() throws Exception {
    java.nio.file.Path marker = tmp.resolve("loadprof-oom-7");
    System.setProperty(dev.loadprof.pipelines.JobWait.MARKER_PROPERTY, marker.toString());
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
      assertEquals(ExitCode.OK, ThreadFailures.afterJob(ExitCode.OK, err), "no file: no failure");
      java.nio.file.Files.createFile(marker);
      assertEquals(ExitCode.JOB_FAILED, ThreadFailures.afterJob(ExitCode.OK, err));
      String said = bytes.toString(StandardCharsets.UTF_8);
      assertEquals(1, said.lines().count(), said);
      assertThat(said, containsString("loadprof: the job ran out of memory (Java heap space"));
    } finally {
      System.clearProperty(dev.loadprof.pipelines.JobWait.MARKER_PROPERTY);
    }
  }
}
