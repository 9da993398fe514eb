package dev.loadprof.perfdata.reader;

/**
 * How perf.data inputs are decoded: by the native reader, falling back to perf script for what it
 * cannot read ({@link #AUTO}, the default), only natively, or only by perf script.
 */
public enum PerfDataReading {
  AUTO, NATIVE, PERF_SCRIPT;

  /** "auto", "native" or "perf-script"; null for anything else. */
  public static PerfDataReading parse(String text) {
    return switch (text) {
      case "auto" -> AUTO;
      case "native" -> NATIVE;
      case "perf-script" -> PERF_SCRIPT;
      default -> null;
    };
  }
}
