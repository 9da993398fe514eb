package dev.loadprof.model;

/**
 * Marks an exception caused by the user's input (a damaged archive, a run id already taken,
 * runs that cannot be compared), not by a failed job: its message is one line that names the
 * input and says what to do, and the CLI shows it as is and exits 2. The CLI finds such an
 * exception by its type in the chain of causes, never by its text.
 */
public interface BadInput {
  /** The one-line message for the user. */
  String getMessage();
}
