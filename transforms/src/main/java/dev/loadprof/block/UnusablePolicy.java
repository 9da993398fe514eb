package dev.loadprof.block;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.ArrayList;
import java.util.List;

/**
 * When a run cannot be analyzed at all: it has no samples and no switches (not perf script
 * output), no sched_switch records (loads cannot be known), or no samples of a sampling event.
 * The verdict is {@link RunInfo#unusableReason}; the reports leave such runs' samples out.
 */
public final class UnusablePolicy {
  /** Starts the warning line that shows the verdict to people (summary.json, the log). */
  public static final String WARNING_PREFIX = "UNUSABLE: ";

  // loadprof reads the perf.data itself; perf script's text is the other way in, not a step.
  private static final String RECORD = "perf record -k mono -a -g -e cpu-clock -e"
      + " sched:sched_switch -o X.data -- CMD, then loadprof analyze X.data (or its text: perf"
      + " script -i X.data -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns"
      + " --show-task-events)";

  private UnusablePolicy() {}

  /**
   * Why this run cannot be analyzed, as a one-line message that names the file and the perf
   * command to use, or "" when it can. Depends only on what the run's RunInfo says, so a run
   * read back from an archive gets the same verdict.
   */
  public static String reasonOf(RunInfo info) {
    String damaged = PerfDataDamage.reasonOf(info);
    if (!damaged.isEmpty()) {
      return damaged; // what was read says nothing sure
    }
    if (info.health.get(TraceHealth.SWITCH_RECORDS) == 0
        && info.health.get(TraceHealth.SAMPLE_RECORDS) == 0) {
      return info.source + ": no perf samples or sched_switch records found ("
          + info.health.get(TraceHealth.MALFORMED_LINES) + " unreadable lines). Is this perf"
          + " script output? Make one with: " + RECORD;
    }
    long ofAProcess = info.health.get(TraceHealth.PER_THREAD_SCHED_SWITCHES);
    if (info.health.get(TraceHealth.SWITCH_RECORDS) == 0 && ofAProcess > 0) {
      // perf record -e sched:sched_switch -- CMD, without -a: each record is a switch-out of one
      // of the program's threads (seen on perf 6.1); when they started is never recorded.
      return info.source + ": recorded per process (perf record without -a: its samples have no"
          + " CPU), so its " + ofAProcess + " sched:sched_switch records are only the program's"
          + " own switch-outs, never when its threads start, and loads cannot be known. Record"
          + " with: " + RECORD + "; or without root: loadprof record -- CMD";
    }
    if (info.health.get(TraceHealth.SWITCH_RECORDS) == 0) {
      return info.source + ": no sched:sched_switch records, so loads cannot be known. Record"
          + " with: " + RECORD;
    }
    if (info.samplingEvent.isEmpty() && !info.requestedEvent.isEmpty()
        && !info.unusedEvents.isEmpty()) {
      List<String> present = new ArrayList<>();
      info.unusedEvents.forEach((event, n) -> present.add(event + " (" + n + " samples)"));
      return info.source + ": no samples of the event " + info.requestedEvent + " (--event);"
          + " the trace has samples of: " + String.join(", ", present) + ". Give one of them"
          + " with --event, or leave --event out for the first one";
    }
    if (info.samplingEvent.isEmpty()) {
      return info.source + ": no samples of a sampling event (cpu-clock, cycles, ...). Record"
          + " with: " + RECORD;
    }
    return "";
  }

  /**
   * Judges again once the perf.data reader has put what it could not read into the health:
   * an unusable verdict replaces a usable one, and a tolerated unread part is a warning.
   */
  public static void judgeUnreadData(RunInfo info) {
    String damaged = PerfDataDamage.reasonOf(info);
    if (!damaged.isEmpty()) {
      if (info.isUnusable()) {
        info.warnings.remove(0); // the earlier verdict, which the damage explains
      }
      info.unusableReason = damaged;
      info.warnings.add(0, WARNING_PREFIX + damaged);
      return;
    }
    String warning = PerfDataDamage.warningOf(info);
    if (!warning.isEmpty()) {
      info.warnings.add(warning);
    }
  }

  /** Sets the run's verdict and, for an unusable run, puts the reason first among its warnings. */
  public static void judge(RunInfo info) {
    info.unusableReason = reasonOf(info);
    if (info.isUnusable()) {
      info.warnings.add(0, WARNING_PREFIX + info.unusableReason);
    }
  }
}
