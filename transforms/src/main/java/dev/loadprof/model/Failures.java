package dev.loadprof.model;

import java.io.IOException;

/** A failure caught on another thread (a reader, a parser, a joiner), passed on to the caller's. */
public final class Failures {
  private Failures() {}

  /**
   * The failure as the caller's own: a RuntimeException or an Error is thrown as it is; an
   * IOException is returned as it is, and any other checked failure wrapped in one, for the
   * caller to throw ({@code throw Failures.asIOException(t)}).
   */
  public static IOException asIOException(Throwable failure) {
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return failure instanceof IOException io ? io : new IOException(failure);
  }
}
