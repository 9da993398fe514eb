package dev.loadprof.cli;

/**
 * Bad usage or bad input, found before or while the job runs: exit 2 with this message, which
 * names the option or file and says what to do.
 */
public final class UsageException extends Exception {
  public UsageException(String message) {
    super(message);
  }
}
