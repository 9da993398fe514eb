package dev.loadprof.parse;

/** Run ids: one trace file is one run, named after the file. */
public final class RunIds {
  private RunIds() {}

  /** The run id of a trace file: its name without directories and .gz/.txt/.perf suffixes. */
  public static String of(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    for (String suffix : new String[] {".gz", ".txt", ".perf", ".script"}) {
      if (name.endsWith(suffix) && name.length() > suffix.length()) {
        name = name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }
}
