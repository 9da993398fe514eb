package dev.loadprof.progress;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stores (S3, HDFS) that the job in this JVM gave up on because they did not answer, with
 * the one line that says so. The stores module's clients record here and fail every later
 * request to such a store at once; the CLI reads the first one to end the job with that line
 * (exit 1), whichever step met the outage (a check before the job turns read errors into bad
 * usage otherwise).
 */
public final class StoreOutages {
  private static final Map<String, String> GIVEN_UP = new ConcurrentHashMap<>();
  private static volatile String first;

  private StoreOutages() {}

  /** Records that {@code store} is given up, and why (one line); the first reason stays. */
  public static void giveUp(String store, String why) {
    if (GIVEN_UP.putIfAbsent(store, why) == null && first == null) {
      first = why;
    }
  }

  /** Why {@code store} was given up, or null. */
  public static String whyGivenUp(String store) {
    return GIVEN_UP.get(store);
  }

  /** The first store outage of the job, or null. */
  public static String first() {
    return first;
  }

  /** Forgets the outages (a new job in this JVM). */
  public static void reset() {
    GIVEN_UP.clear();
    first = null;
  }
}
