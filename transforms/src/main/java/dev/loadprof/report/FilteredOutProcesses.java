package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The processes that the --pid/--comm filters left out, so that a filter matching nothing says
 * what it asked for and which processes there are, instead of a bare "No process samples found".
 */
final class FilteredOutProcesses implements java.io.Serializable {
  /** How many of the biggest left-out processes the note lists. */
  static final int LISTED = 5;

  private record Left(String runId, int pid, String name, long samples)
      implements java.io.Serializable {}

  private final List<Left> left = new ArrayList<>();

  void add(String runId, int pid, String name, long samples) {
    left.add(new Left(runId, pid, name, samples));
  }

  /** Whether no process was left out (a stored part holds none: PartCodec). */
  boolean isEmpty() {
    return left.isEmpty();
  }

  /** Another run's processes left out, as if assembled together (RunAnalyses). */
  void addAll(FilteredOutProcesses other) {
    left.addAll(other.left);
  }

  /**
   * Why no process is in the outputs when the filters removed them all, naming the filter and
   * the biggest processes (name, pid, samples); "" when something is left or nothing was
   * filtered.
   */
  String noteWhenNothingLeft(Filters filters, boolean anyKept, boolean manyRuns) {
    if (anyKept || left.isEmpty()) {
      return "";
    }
    left.sort(Comparator.comparingLong(Left::samples).reversed()
        .thenComparing(Left::runId).thenComparingInt(Left::pid));
    List<String> biggest = new ArrayList<>();
    for (Left l : left.subList(0, Math.min(LISTED, left.size()))) {
      biggest.add(Printable.escape(l.name()) + " (pid " + ProcessKey.pid(l.pid()) + ", " + l.samples()
          + (l.samples() == 1 ? " sample" : " samples") + (manyRuns ? ", run " + Printable.escape(l.runId()) : "") + ")");
    }
    return "no process matches " + selection(filters) + "; the biggest processes"
        + " are: " + String.join(", ", biggest);
  }

  /** The --pid and --comm given ("--pid 7 and --comm ^a$"), or "" when neither was. */
  static String selection(Filters filters) {
    List<String> asked = new ArrayList<>();
    if (filters.pids() != null) {
      Set<Integer> pids = new TreeSet<>(filters.pids());
      asked.add("--pid " + String.join(",", pids.stream().map(String::valueOf).toList()));
    }
    if (filters.commRegex() != null) {
      asked.add("--comm " + Printable.escape(filters.commRegex()));
    }
    return String.join(" and ", asked);
  }
}
