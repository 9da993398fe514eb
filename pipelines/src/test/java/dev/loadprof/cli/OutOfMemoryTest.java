package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Running out of heap is one line that says how to give the job more, however it is wrapped. */
class OutOfMemoryTest {
  @Test
  void theLineNamesTheHeapAndHowToGiveMore() {
    String line = OutOfMemory.advice(new OutOfMemoryError("Java heap space"), 1024L << 20);
    assertThat(line,
        containsString("ran out of memory (Java heap space, with a 1024 MB Java heap)"));
    assertThat(line, containsString("LOADPROF_JAVA_OPTS=-Xmx2048m"));
  }

  @Test
  void aWrappedOutOfMemoryErrorIsFoundAndOtherFailuresAreNot() {
    RuntimeException wrapped = new RuntimeException("runner",
        new IllegalStateException("step", new OutOfMemoryError("Java heap space")));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int exit = JobOutcome.failed(wrapped, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals(ExitCode.JOB_FAILED, exit);
    String err = bytes.toString(StandardCharsets.UTF_8);
    assertThat(err, containsString("loadprof: the job ran out of memory (Java heap space"));
    assertEquals(1, err.lines().count(), err);
    assertNull(OutOfMemory.advice(new RuntimeException("disk", new IllegalStateException("x"))));
  }
}
