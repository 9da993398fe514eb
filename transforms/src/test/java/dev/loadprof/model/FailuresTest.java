package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Another thread's failure reaches the caller as itself, or as the cause of an IOException. */
class FailuresTest {
  @Test
  void eachKindOfFailureReachesTheCallerAsItself() {
    IOException io = new IOException("disk");
    assertSame(io, Failures.asIOException(io));
    IllegalStateException bug = new IllegalStateException("bug");
    assertSame(bug, assertThrows(IllegalStateException.class, () -> Failures.asIOException(bug)));
    OutOfMemoryError oom = new OutOfMemoryError("heap");
    assertSame(oom, assertThrows(OutOfMemoryError.class, () -> Failures.asIOException(oom)));
    Exception checked = new Exception("other");
    assertSame(checked, Failures.asIOException(checked).getCause());
  }
}
