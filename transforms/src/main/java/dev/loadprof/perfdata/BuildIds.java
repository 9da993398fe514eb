package dev.loadprof.perfdata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The build ids a perf.data file holds for the objects its samples hit ({@code perf
 * buildid-list}), so that pprof's mappings can name the exact binary. Text traces carry none.
 */
public final class BuildIds {
  /** "HEX PATH": a build id (SHA-1 or longer, or MD5) and the object's path as perf names it. */
  private static final Pattern LINE = Pattern.compile("^([0-9a-f]{16,})\\s+(\\S.*)$");

  private BuildIds() {}

  /** Object path to build id; empty when perf cannot say (build ids are optional). */
  public static TreeMap<String, String> read(Path perfData) {
    try {
      return parse(PerfProcess.runForText(List.of("perf", "buildid-list", "-f", "-i",
          perfData.toString()), perfData.toString()));
    } catch (IOException | RuntimeException e) {
      return new TreeMap<>();
    }
  }

  /** Parses perf buildid-list's output; other lines are ignored. */
  public static TreeMap<String, String> parse(String text) {
    TreeMap<String, String> ids = new TreeMap<>();
    for (String line : text.split("\n")) {
      Matcher m = LINE.matcher(line.strip());
      if (m.matches()) {
        ids.putIfAbsent(m.group(2).strip(), m.group(1));
      }
    }
    return ids;
  }
}
