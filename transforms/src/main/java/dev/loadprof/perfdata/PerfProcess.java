package dev.loadprof.perfdata;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs perf and turns "not installed" and failures into IOExceptions with perf's own words. */
final class PerfProcess {
  /** perf's stderr kept for the error message. */
  private static final int MAX_STDERR = 4096;

  private PerfProcess() {}

  static Process start(List<String> command) throws IOException {
    try {
      return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
    } catch (IOException e) {
      throw new PerfMissingException();
    }
  }

  /** Runs the command and returns its stdout; a non-zero exit is an IOException with stderr. */
  static String runForText(List<String> command, String what) throws IOException {
    Process p = start(command);
    p.getOutputStream().close();
    Thread err = drainLater(p.getErrorStream());
    byte[] out = p.getInputStream().readAllBytes();
    waitFor(p, err, command, what);
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Collects the first MAX_STDERR bytes of stderr on a thread, so perf never blocks on it. */
  static Thread drainLater(InputStream stderr) {
    ByteArrayOutputStream kept = new ByteArrayOutputStream();
    Thread t = new Thread(() -> {
      byte[] buf = new byte[8192];
      try {
        for (int n; (n = stderr.read(buf)) > 0; ) {
          synchronized (kept) {
            kept.write(buf, 0, Math.max(0, Math.min(n, MAX_STDERR - kept.size())));
          }
        }
      } catch (IOException e) {
        // perf went away; its exit code tells
      }
    }, "perf-stderr");
    t.setDaemon(true);
    t.start();
    STDERR.put(t, kept);
    return t;
  }

  private static final java.util.Map<Thread, ByteArrayOutputStream> STDERR =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  /**
   * perf's stderr without the notes it prints for every recording (-F trace on events that are
   * not tracepoints), its first 3 lines joined.
   */
  static String meaningful(String stderr) {
    return stderr.lines().map(String::trim)
        .filter(l -> !l.isEmpty() && !(l.startsWith("'trace' not valid for ")))
        .limit(3).reduce((a, b) -> a + " / " + b).orElse("");
  }

  static void waitFor(Process p, Thread err, List<String> command, String what)
      throws IOException {
    try {
      int code = p.waitFor();
      err.join(5_000);
      ByteArrayOutputStream kept = STDERR.remove(err);
      if (code != 0) {
        String said = meaningful(kept == null ? "" : kept.toString(StandardCharsets.UTF_8));
        throw failure(what, command, code, said);
      }
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new IOException(what + ": interrupted", e);
    }
  }

  /** Exit codes of a perf killed from outside (128 + SIGHUP, SIGINT, SIGKILL, SIGPIPE, SIGTERM). */
  private static final java.util.Set<Integer> KILLED_FROM_OUTSIDE =
      java.util.Set.of(129, 130, 137, 141, 143);

  /**
   * Why perf failed on the file {@code what}. perf that runs but exits non-zero (or crashes) on
   * an input file could not read that file: bad input, named with perf's words. Not the file's
   * fault: perf that does not run at all (perf --version fails), or a perf killed from outside
   * (the OOM killer, a user), which says nothing about the file.
   */
  static IOException failure(String what, List<String> command, int code, String said) {
    if (DamagedPerfDataException.saysDamaged(said)) {
      return new DamagedPerfDataException(what, said);
    }
    String run = String.join(" ", command.subList(0, Math.min(2, command.size())));
    if (KILLED_FROM_OUTSIDE.contains(code)) {
      return new IOException(what + ": " + run + " was killed (signal " + (code - 128)
          + ", out of memory?) while reading it" + (said.isEmpty() ? "" : ": " + said));
    }
    try {
      PerfMissingException.check();
    } catch (PerfMissingException e) {
      return e;
    }
    return DamagedPerfDataException.unreadable(what, run + " exits " + code
        + (said.isEmpty() ? " without a word" : ": " + said));
  }
}
