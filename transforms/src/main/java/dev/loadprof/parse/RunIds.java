package dev.loadprof.parse;

/** Run ids: one trace file is one run, named after the file. */
public final class RunIds {
  private static final String[] SUFFIXES =
      {".gz", ".bz2", ".xz", ".zst", ".txt", ".perf", ".script", ".data"};

  private RunIds() {}

  /**
   * The run id of a trace file: its name without directories and compression, .txt, .perf,
   * .script and .data suffixes; "stdin" for standard input.
   */
  public static String of(String path) {
    if (path.equals(TraceFiles.STDIN)) {
      return "stdin";
    }
    String name = path.substring(path.lastIndexOf('/') + 1);
    for (String suffix : SUFFIXES) {
      if (name.endsWith(suffix) && name.length() > suffix.length()) {
        name = name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }
}
