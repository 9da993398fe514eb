package dev.loadprof.codec;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One instance of each string that many decoded records repeat (process and function names,
 * counter names, hosts): a nightly holds thousands of past runs' figures and manifests, each
 * decoded with its own copies of the same few thousand names, a million strings, half its live
 * heap, which its collector copied again and again. Bounded: past {@link #MAX} distinct strings
 * a string is given back as it is, so a long-lived worker does not keep every string it met.
 */
public final class SharedStrings {
  static final int MAX = 1 << 18;
  private static final ConcurrentHashMap<String, String> POOL = new ConcurrentHashMap<>();

  private SharedStrings() {}

  /** The shared instance equal to {@code s} (null for null). */
  public static String of(String s) {
    if (s == null) {
      return null;
    }
    String shared = POOL.get(s);
    if (shared != null) {
      return shared;
    }
    if (POOL.size() >= MAX) {
      return s;
    }
    shared = POOL.putIfAbsent(s, s);
    return shared == null ? s : shared;
  }
}
