package dev.loadprof.cli.progress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether this process's stderr is a terminal (Java's Console answers for stdin and stdout). */
final class Terminal {
  private Terminal() {}

  static boolean stderrIsTerminal() {
    return isTerminal(Path.of("/proc/self/fd/2"));
  }

  /** True when the descriptor's link names a terminal device (Linux: /dev/pts/N, /dev/ttyN). */
  static boolean isTerminal(Path descriptor) {
    try {
      String target = Files.readSymbolicLink(descriptor).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
