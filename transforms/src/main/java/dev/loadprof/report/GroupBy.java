package dev.loadprof.report;

import dev.loadprof.model.RunInfo;
import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How the many-runs reports gather (run, process) pairs into groups. Written as {@code none},
 * {@code host}, {@code comm}, {@code run} or {@code run:REGEX}:
 *
 * <ul>
 *   <li>{@code none}: one group per process name across all runs (the "all runs" aggregate);
 *   <li>{@code host}: by the run's host, {@value #UNKNOWN_HOST} when the trace did not say it;
 *   <li>{@code comm}: by process name;
 *   <li>{@code run}: one group per run id;
 *   <li>{@code run:REGEX}: by the first capture group of REGEX found in the run id, or the whole
 *       match when REGEX has no group; runs it does not match (or matches empty) go to
 *       {@value #OTHER}.
 * </ul>
 */
public final class GroupBy implements Serializable {
  public static final String UNKNOWN_HOST = "(unknown host)";
  public static final String OTHER = "(other)";

  /** The default: no grouping asked for. */
  public static final GroupBy NONE = new GroupBy(Kind.NONE, null);

  private enum Kind {
    NONE,
    HOST,
    COMM,
    RUN
  }

  private final Kind kind;
  /** Only for run:REGEX. */
  private final Pattern runPattern;

  private GroupBy(Kind kind, Pattern runPattern) {
    this.kind = kind;
    this.runPattern = runPattern;
  }

  /** Parses a spec; null or blank is {@link #NONE}. Throws IllegalArgumentException otherwise. */
  public static GroupBy parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return NONE;
    }
    String t = spec.trim();
    String lower = t.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "none":
        return NONE;
      case "host":
        return new GroupBy(Kind.HOST, null);
      case "comm":
        return new GroupBy(Kind.COMM, null);
      case "run":
        return new GroupBy(Kind.RUN, null);
      default:
        break;
    }
    if (lower.startsWith("run:")) {
      String regex = t.substring("run:".length());
      if (regex.isEmpty()) {
        throw new IllegalArgumentException(
            "bad group-by \"" + spec + "\": run: needs a regular expression, e.g. run:^(\\w+)-");
      }
      try {
        return new GroupBy(Kind.RUN, Pattern.compile(regex));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "bad group-by \"" + spec + "\": not a valid regular expression: "
                + e.getDescription());
      }
    }
    throw new IllegalArgumentException(
        "bad group-by \"" + spec + "\": expected none, host, comm, run or run:REGEX");
  }

  public boolean isNone() {
    return kind == Kind.NONE;
  }

  /**
   * The group of one process of one run. {@code none} groups by process name too: what sets it
   * apart from {@code comm} is only that it is not asked for, so a single run makes no groups.
   */
  public String groupOf(RunInfo run, String comm) {
    switch (kind) {
      case HOST:
        return run.host == null || run.host.isEmpty() ? UNKNOWN_HOST : run.host;
      case RUN:
        return runPattern == null ? run.runId : runGroup(run.runId);
      case NONE:
      case COMM:
      default:
        return comm;
    }
  }

  private String runGroup(String runId) {
    Matcher m = runPattern.matcher(runId);
    if (!m.find()) {
      return OTHER;
    }
    String key = m.groupCount() >= 1 ? m.group(1) : m.group();
    return key == null || key.isEmpty() ? OTHER : key;
  }

  /** The spec text that {@link #parse} reads back to an equal grouping. */
  @Override
  public String toString() {
    switch (kind) {
      case HOST:
        return "host";
      case COMM:
        return "comm";
      case RUN:
        return runPattern == null ? "run" : "run:" + runPattern.pattern();
      case NONE:
      default:
        return "none";
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupBy g && g.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
