package dev.loadprof.cli;

import dev.loadprof.parse.LocalInputs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * stdin named as an input ({@code -}) on a pipe is read to its end before loadprof exits, whatever
 * the outcome: a job refused at once (a bad option, bad content) would otherwise close the pipe
 * while its writer writes, and {@code perf record -o - -- PROGRAM | loadprof analyze -} would end
 * with perf and the recorded program killed by SIGPIPE (exit 141). A job that read stdin to its
 * end costs nothing here.
 */
final class PipedStdin {
  private static final Set<String> READING_COMMANDS = Set.of("analyze", "compare", "nightly");
  private static final Path STDIN = Path.of("/proc/self/fd/0");

  private PipedStdin() {}

  /** Drains stdin when {@code args} make it an input of a job and it is a pipe or socket. */
  static void drainIfAnInput(String[] args, PrintStream err) {
    List<String> given = List.of(args);
    if (given.isEmpty() || !READING_COMMANDS.contains(given.get(0)) || !given.contains("-")) {
      return;
    }
    LocalInputs.Kind kind = LocalInputs.kind(STDIN);
    if (kind == LocalInputs.Kind.PIPE || kind == LocalInputs.Kind.FIFO
        || kind == LocalInputs.Kind.SOCKET) {
      drain(System.in, err);
    }
  }

  /** Reads {@code in} to its end, saying so once if anything was left. */
  static void drain(InputStream in, PrintStream err) {
    try {
      if (in.read() < 0) {
        return;
      }
      err.println("loadprof: reading the rest of stdin (and dropping it) until its writer ends,"
          + " so that it is not killed by a closed pipe; Ctrl-C stops both");
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      // the writer is gone or the pipe broke: nothing is left to protect
    }
  }
}
