package dev.loadprof.cli;

import java.util.IdentityHashMap;
import java.util.Map;

/** The chain of causes of a failed job, as the runner hands it back (runners wrap them). */
final class FailureCauses {
  private static final int MAX_DEPTH = 50;

  private FailureCauses() {}

  /** The first cause that is a {@code type}, or null. */
  static <T> T find(Throwable t, Class<T> type) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (int depth = 0; t != null && depth < MAX_DEPTH && seen.put(t, true) == null; depth++) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
      t = t.getCause();
    }
    return null;
  }

  /** The innermost cause. */
  static Throwable root(Throwable t) {
    Throwable root = t;
    for (int depth = 0; root.getCause() != null && root.getCause() != root
        && depth < MAX_DEPTH; depth++) {
      root = root.getCause();
    }
    return root;
  }
}
