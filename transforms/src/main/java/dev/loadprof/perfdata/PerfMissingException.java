package dev.loadprof.perfdata;

import java.io.IOException;

/** perf is not installed (or not on PATH), so a perf.data file cannot be decoded or recorded. */
public final class PerfMissingException extends IOException {
  public static final String MESSAGE = "perf is not installed (not found on PATH): install it"
      + " (Debian/Ubuntu: apt-get install linux-perf; Fedora: dnf install perf), or give perf"
      + " script text instead of perf.data";

  public PerfMissingException() {
    super(MESSAGE);
  }

  /** Throws this exception when perf cannot be run. */
  public static void check() throws PerfMissingException {
    try {
      Process p = new ProcessBuilder("perf", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (p.waitFor() != 0) {
        throw new PerfMissingException();
      }
    } catch (IOException e) {
      throw new PerfMissingException();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PerfMissingException();
    }
  }
}
