package dev.loadprof.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Run ids: one trace file is one run, named after the file. Within one job every run id is
 * unique: two traces of the same file name in different directories are two runs, told apart by
 * their directories.
 */
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

  /**
   * The run ids of a job's trace files (distinct paths), unique in the job: {@link #of} for a
   * file whose name no other file shares; files that share one are qualified by as few of their
   * last directories as tell them all apart ({@code base/prog} and {@code new/prog}), or, when
   * no number of directories does (a local and a remote path), by their whole path. The same
   * paths give the same ids in any order.
   *
   * @return path -> run id, in the order of {@code paths}
   */
  public static Map<String, String> of(List<String> paths) {
    Map<String, List<String>> byName = new TreeMap<>();
    for (String path : paths) {
      byName.computeIfAbsent(of(path), k -> new ArrayList<>()).add(path);
    }
    Map<String, String> qualified = new TreeMap<>();
    byName.forEach((name, same) -> qualified.putAll(qualify(name, same)));
    Map<String, String> ids = new LinkedHashMap<>();
    for (String path : paths) {
      ids.put(path, qualified.get(path));
    }
    return ids;
  }

  /** The ids of files of one name: as few last directories as make them distinct. */
  private static Map<String, String> qualify(String name, List<String> paths) {
    Map<String, String> ids = new TreeMap<>();
    if (paths.size() == 1) {
      ids.put(paths.get(0), name);
      return ids;
    }
    int deepest = paths.stream().mapToInt(p -> directories(p).size()).max().orElse(0);
    for (int depth = 1; depth <= deepest; depth++) {
      Set<String> seen = new HashSet<>();
      ids.clear();
      for (String path : paths) {
        List<String> dirs = directories(path);
        String id = String.join("/", dirs.subList(Math.max(0, dirs.size() - depth), dirs.size()))
            + "/" + name;
        ids.put(path, id);
        seen.add(id);
      }
      if (seen.size() == paths.size()) {
        return ids;
      }
    }
    ids.clear();
    paths.forEach(path -> ids.put(path, path));
    return ids;
  }

  /** The directory names of a path, outermost first (a URL's scheme and host among them). */
  private static List<String> directories(String path) {
    String dir = path.substring(0, Math.max(0, path.lastIndexOf('/')));
    return Arrays.stream(dir.split("/")).filter(s -> !s.isEmpty()).toList();
  }
}
