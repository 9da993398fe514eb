package dev.loadprof.compare;

/** Input that cannot be compared, with a one-line message saying why and what to do (exit 2). */
public final class CompareInputException extends IllegalArgumentException {
  public CompareInputException(String message) {
    super(message);
  }
}
