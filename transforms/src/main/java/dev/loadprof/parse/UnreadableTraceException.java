package dev.loadprof.parse;

import dev.loadprof.model.BadInput;
import java.io.IOException;

/**
 * An input that cannot be read as a trace at all: a file this user may not read, a character
 * device, a socket, a FIFO that nothing writes. Bad input (exit 2), in one line that names it.
 */
public final class UnreadableTraceException extends IOException implements BadInput {
  public UnreadableTraceException(String message) {
    super(message);
  }
}
