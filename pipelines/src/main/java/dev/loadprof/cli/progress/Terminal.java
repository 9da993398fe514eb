package dev.loadprof.cli.progress;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this process's stderr is a terminal (Java's Console answers for stdin and stdout), and
 * how wide the terminal is.
 */
final class Terminal {
  /** The width assumed when neither $COLUMNS nor the terminal says (a VT100's). */
  static final int DEFAULT_COLUMNS = 80;

  private Terminal() {}

  /**
   * The terminal's width: $COLUMNS where the shell exports it, else what {@code stty size}
   * says of the controlling terminal, else 80.
   */
  static int columns() {
    Integer columns = positive(System.getenv("COLUMNS"));
    if (columns != null) {
      return columns;
    }
    try {
      Process stty = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String size = new String(stty.getInputStream().readAllBytes()).trim(); // "ROWS COLUMNS"
      stty.waitFor();
      columns = positive(size.substring(size.indexOf(' ') + 1));
    } catch (IOException | RuntimeException e) {
      columns = null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      columns = null;
    }
    return columns != null ? columns : DEFAULT_COLUMNS;
  }

  private static Integer positive(String text) {
    try {
      int n = Integer.parseInt(text == null ? "" : text.trim());
      return n > 0 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

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
