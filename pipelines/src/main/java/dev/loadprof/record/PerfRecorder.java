package dev.loadprof.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs {@code perf record ... -- CMD}: the program's stdin and stdout are the terminal's, its
 * stderr (shared with perf's) is copied to ours as it comes, and SIGINT (Ctrl-C) stops the
 * recording without stopping this JVM, so what was recorded can still be analyzed.
 */
final class PerfRecorder {
  /** The end of perf's (and the program's) stderr, kept to explain a failure. */
  private static final int STDERR_TAIL = 8192;

  record Result(int exitCode, boolean interrupted, String stderrTail) {}

  private PerfRecorder() {}

  static Result run(List<String> command, PrintStream err) throws IOException {
    Process perf = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.INHERIT)
        .redirectOutput(ProcessBuilder.Redirect.INHERIT)
        .redirectError(ProcessBuilder.Redirect.PIPE)
        .start();
    AtomicBoolean interrupted = new AtomicBoolean();
    Object previous = onSigint(() -> {
      interrupted.set(true);
      // From a terminal, perf and the program got the SIGINT too; from kill -INT only we did.
      sendSigint(perf.pid());
    });
    ByteArrayOutputStream tail = new ByteArrayOutputStream();
    Thread copier = new Thread(() -> copy(perf.getErrorStream(), err, tail), "perf-stderr");
    copier.start();
    try {
      int code = waitUninterruptibly(perf);
      copier.join(10_000);
      String text;
      synchronized (tail) {
        text = tail.toString(StandardCharsets.UTF_8);
      }
      return new Result(code, interrupted.get(), text);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while recording", e);
    } finally {
      restoreSigint(previous);
    }
  }

  private static int waitUninterruptibly(Process p) throws InterruptedException {
    return p.waitFor();
  }

  private static void copy(InputStream in, PrintStream err, ByteArrayOutputStream tail) {
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        err.write(buf, 0, n);
        err.flush();
        synchronized (tail) {
          if (tail.size() + n > STDERR_TAIL) {
            byte[] keep = tail.toByteArray();
            tail.reset();
            int from = Math.max(0, keep.length - STDERR_TAIL / 2);
            tail.write(keep, from, keep.length - from);
          }
          tail.write(buf, 0, n);
        }
      }
    } catch (IOException e) {
      // perf closed its stderr: done
    }
  }

  private static void sendSigint(long pid) {
    try {
      new ProcessBuilder("kill", "-INT", Long.toString(pid)).start().waitFor();
    } catch (IOException e) {
      // perf is gone already
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Installs a SIGINT handler (sun.misc.Signal: the JDK has no public API for it). */
  private static Object onSigint(Runnable action) {
    try {
      return sun.misc.Signal.handle(new sun.misc.Signal("INT"), s -> action.run());
    } catch (IllegalArgumentException e) {
      return null; // the signal is reserved here (e.g. -Xrs): Ctrl-C then ends the JVM as usual
    }
  }

  private static void restoreSigint(Object previous) {
    if (previous instanceof sun.misc.SignalHandler h) {
      sun.misc.Signal.handle(new sun.misc.Signal("INT"), h);
    }
  }
}
