package dev.loadprof.compare;

import dev.loadprof.model.BadInput;

/** Input that cannot be compared, with a one-line message saying why and what to do (exit 2). */
public final class CompareInputException extends IllegalArgumentException
    implements BadInput {
  public CompareInputException(String message) {
    super(message);
  }
}
