package dev.loadprof.block;

import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;

/** The loud warnings about a run whose figures may be off, from what reading it counted. */
final class RunWarnings {
  private RunWarnings() {}

  /** perf's :u modifier (cpu-clock:u, cycles:upp, cpu-clock/freq=N/u): user space only. */
  static boolean userOnly(String event) {
    int colon = event.lastIndexOf(':');
    String modifiers = event.endsWith("/u") ? "u"
        : colon < 0 ? "" : event.substring(colon + 1);
    return modifiers.matches("[a-zA-Z]+") && modifiers.contains("u") && !modifiers.contains("k");
  }

  static void add(RunInfo info, String sourceName, boolean plainLayout, boolean threadLanes,
      boolean fromPerfData) {
    TraceHealth health = info.health;
    if (threadLanes && health.get(TraceHealth.SWITCH_RECORDS) > 0) {
      info.warnings.add(sourceName + ": " + RunInfo.PER_PROCESS_LIMIT + "loads come from"
          + " per-thread context-switch records: only the recorded program's threads are seen,"
          + " and a :u"
          + " sampling event shows no kernel frames. Record system-wide as root for both.");
      if (userOnly(info.samplingEvent)) {
        // Measured on mixed 60 2: its hand-offs spend ~4 % of its CPU time in the kernel, nearly
        // all at load 1, which moved the real time at load 1 by 1.5 points.
        info.warnings.add(sourceName + ": " + RunInfo.PER_PROCESS_LIMIT + "the sampling event "
            + info.samplingEvent + " counts"
            + " user time only, so the CPU and real time histograms leave out the kernel time"
            + " of the program's threads (system calls, such as the hand-offs between threads);"
            + " time_at_load_ns, from the switch records, includes it.");
      }
    }
    long lost = health.get(TraceHealth.SWITCHES_LOST_TO_SAMPLING);
    if (lost > 0) {
      info.warnings.add(String.format(
          "%s: sched_switch was frequency-sampled (perf record -F or -c): %d switch records stand"
              + " for %d lost switches; loads are unreliable. Record again without -F/-c (use"
              + " -e cpu-clock/freq=N/ to change the sample rate).",
          sourceName, health.get(TraceHealth.FREQ_SAMPLED_SWITCH_RECORDS), lost));
    }
    if (plainLayout) {
      info.warnings.add(sourceName + ": no pids in this trace (plain perf script): threads are"
          + " grouped into processes by name. For exact processes run: perf script -F"
          + " comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns --show-task-events");
    }
    long unknown = health.get(TraceHealth.UNKNOWN_PID_SWITCHES);
    if (unknown >= 10 && unknown * 100 > health.get(TraceHealth.SWITCH_RECORDS)) {
      // loadprof decodes a perf.data with --show-task-events itself: the advice is for text.
      info.warnings.add(sourceName + ": " + unknown + " switch records name a thread whose"
          + " process is unknown, so loads are undercounted. " + (fromPerfData
          ? "The recording has no task event for them: record system-wide from before the"
              + " program starts (perf record -a ... -- CMD) so that perf sees every thread."
          : "Run perf script with --show-task-events (and -F comm,pid,tid,...) so that every"
              + " thread's process is known."));
    }
    if (health.get(TraceHealth.LOST_EVENTS) > 0) {
      info.warnings.add(LossTimeline.warning(sourceName, health.get(TraceHealth.LOST_EVENTS)));
    }
    if (health.get(TraceHealth.MALFORMED_LINES) > 0) {
      info.warnings.add(sourceName + ": " + health.get(TraceHealth.MALFORMED_LINES)
          + " malformed lines were skipped, first: " + health.malformedExamples().get(0));
    }
  }
}
