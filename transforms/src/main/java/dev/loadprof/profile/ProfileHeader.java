package dev.loadprof.profile;

import com.google.perftools.profiles.ProfileProto.Profile;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * What both pprof profiles (profile.pb.gz, offcpu.pb.gz) say about themselves besides their
 * samples: the duration, the start time and the comments (runs, warnings, what the duration is).
 *
 * <p>The duration is the span of what the profile is about, the figure the console's wall line
 * starts with: per run, from the first to the last instant a thread of the run's subject (the
 * program perf started and what it started) ran, when the profile holds the subject; else of
 * all the run's processes in the profile; the run's span when they have no run intervals (a
 * trace without switch records). The runs' spans add up: runs are often recorded on
 * different machines or boots, whose clocks cannot be compared. A run none of whose processes
 * is in the profile (unusable, or filtered out) adds nothing.
 */
public final class ProfileHeader {
  /**
   * perf timestamps are usually seconds since boot, not since the epoch; pprof would print those
   * as a date in 1970. time_nanos is set only when the trace clock is plainly wall-clock time
   * (perf record -k realtime), i.e. after 2000-01-01.
   */
  static final long EPOCH_2000_NS = 946_684_800L * 1_000_000_000L;

  private ProfileHeader() {}

  /** The span of one run in the profile and what it covers, for the comment. */
  private record Span(long ns, String what) {}

  /** The run's span by the rule of the class comment; null when none of its processes is in. */
  private static Span span(RunInfo run, List<ProcessLoad> processes) {
    boolean subject = false;
    boolean any = false;
    for (ProcessLoad p : processes) {
      if (p.runId.equals(run.runId)) {
        any = true;
        subject |= run.isSubject(p.pid);
      }
    }
    if (!any) {
      return null;
    }
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (ProcessLoad p : processes) {
      if (p.runId.equals(run.runId) && (!subject || run.isSubject(p.pid))
          && p.spanEndNs > p.spanStartNs) {
        start = Math.min(start, p.spanStartNs);
        end = Math.max(end, p.spanEndNs);
      }
    }
    if (end < start) { // no run intervals (no switch records): the trace's span
      return new Span(Math.max(0, run.endNs - run.startNs), "the run's span (no run intervals)");
    }
    return new Span(end - start, subject ? "the span of subject " + run.processName(run.subjectPid)
        + " (pid " + ProcessKey.pid(run.subjectPid) + ")"
        : "the span of the run's processes in the profile");
  }

  /** The object's build id as the first run that knows it states it (perf.data only), or null. */
  public static String buildId(List<RunInfo> runs, String file) {
    for (RunInfo r : runs) {
      String id = r.buildIds.get(file);
      if (id != null) {
        return id;
      }
    }
    return null;
  }

  /** The profile's duration: the runs' spans summed (see the class comment). */
  public static long durationNs(List<RunInfo> runs, List<ProcessLoad> processes) {
    long sum = 0;
    for (RunInfo r : runs) {
      Span s = span(r, processes);
      sum += s == null ? 0 : s.ns();
    }
    return sum;
  }

  /**
   * Sets the period type, period, start time, duration and comments: a line per run (its
   * source, event, load filter and what its duration is) and one per warning of the run.
   * {@code strings} gives a string's index in the string table.
   */
  public static void describe(Profile.Builder p, List<RunInfo> runs, List<ProcessLoad> processes,
      String filter, ToLongFunction<String> strings) {
    if (runs.isEmpty()) {
      return;
    }
    long start = runs.stream().mapToLong(r -> r.startNs).min().getAsLong();
    if (start >= EPOCH_2000_NS) {
      p.setTimeNanos(start);
    }
    p.setDurationNanos(durationNs(runs, processes));
    List<String> comments = new ArrayList<>();
    for (RunInfo r : runs) {
      Span s = span(r, processes);
      comments.add("loadprof run " + r.runId + ": source " + r.source + ", event "
          + r.samplingEvent + (filter.isEmpty() ? "" : ", " + filter)
          + (s == null ? "" : String.format(Locale.ROOT, "; duration %.3f s, %s", s.ns() / 1e9,
              s.what())));
      for (String w : r.warnings) {
        comments.add("warning (" + r.runId + "): " + w);
      }
    }
    comments.forEach(c -> p.addComment(strings.applyAsLong(c)));
  }
}
