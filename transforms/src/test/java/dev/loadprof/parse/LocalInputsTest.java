package dev.loadprof.parse;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that cannot be read as a trace are named at once (a device, a FIFO nothing writes),
 * and a FIFO that a program writes, also one that starts a moment late, is read whole.
 */
class LocalInputsTest {
  /** Well above the grace: a read that hangs fails here instead of holding the build. */
  private static final Duration AT_ONCE = Duration.ofSeconds(60);

  @TempDir Path dir;

  private Path fifo(String name) throws Exception {
    Path fifo = dir.resolve(name);
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo");
    return fifo;
  }

  @Test
  void kindsOfLocalInput() throws Exception {
    assertEquals(LocalInputs.Kind.FILE, LocalInputs.kind(Files.writeString(dir.resolve("f"), "")));
    assertEquals(LocalInputs.Kind.DIRECTORY, LocalInputs.kind(dir));
    assertEquals(LocalInputs.Kind.CHARACTER_DEVICE, LocalInputs.kind(Path.of("/dev/zero")));
    assertEquals(LocalInputs.Kind.FIFO, LocalInputs.kind(fifo("k.fifo")));
    assertEquals(LocalInputs.Kind.MISSING, LocalInputs.kind(dir.resolve("none")));
    // A shell's <(...) is /dev/fd/N, a link to "pipe:[N]": here, the pipe to a child's stdout.
    Process child = new ProcessBuilder("sleep", "30").start();
    try {
      Path pipe = null;
      try (var fds = Files.list(Path.of("/proc/self/fd"))) {
        for (Path fd : fds.toList()) {
          try {
            if (Files.readSymbolicLink(fd).toString().startsWith("pipe:[")) {
              pipe = fd;
            }
          } catch (IOException e) {
            // the listing's own fd, closed by now
          }
        }
      }
      assertEquals(LocalInputs.Kind.PIPE, LocalInputs.kind(pipe));
    } finally {
      child.destroy();
    }
  }

  @Test
  void aCharacterDeviceIsNoTrace() {
    String why = LocalInputs.whyUnreadable("/dev/zero");
    assertThat(why, containsString("/dev/zero is a character device"));
    assertThat(why, containsString("give a perf script trace"));
    assertNull(LocalInputs.whyUnreadable("/etc/hostname"));
    UnreadableTraceException e = assertThrows(UnreadableTraceException.class,
        () -> TraceFiles.openStream("/dev/zero"));
    assertEquals(why, e.getMessage());
  }

  @Test
  void aFifoThatNothingWritesFailsAtOnce() throws Exception {
    Path fifo = fifo("none.fifo");
    UnreadableTraceException e = assertTimeoutPreemptively(AT_ONCE, () -> assertThrows(
        UnreadableTraceException.class, () -> TraceFiles.openStream(fifo.toString())));
    assertThat(e.getMessage(), containsString(fifo + " is a FIFO that no program writes"));
  }

  private static Thread writer(Path fifo, byte[] bytes, long delayMs) {
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(delayMs);
        try (OutputStream out = new FileOutputStream(fifo.toFile())) {
          out.write(bytes);
        }
      } catch (IOException | InterruptedException e) {
        throw new RuntimeException(e);
      }
    });
    t.start();
    return t;
  }

  @Test
  void aFifoIsReadWholeWhetherItsWriterCameFirstOrAMomentLater() throws Exception {
    byte[] bytes = "a trace's text\n".repeat(100_000).getBytes(StandardCharsets.UTF_8);
    for (long delayMs : new long[] {0, LocalInputs.FIFO_WRITER_GRACE_MS / 4}) {
      Path fifo = fifo("w" + delayMs + ".fifo");
      Thread writer = writer(fifo, bytes, delayMs);
      if (delayMs == 0) {
        Thread.sleep(200); // the writer waits in its open for a reader
      }
      byte[] read = assertTimeoutPreemptively(AT_ONCE, () -> {
        try (InputStream in = TraceFiles.openStream(fifo.toString())) {
          return in.readAllBytes();
        }
      });
      writer.join(30_000);
      assertArrayEquals(bytes, read, "writer " + delayMs + " ms late");
    }
  }
}
