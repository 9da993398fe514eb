package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;

/**
 * The line that says which process the console, summary.txt and report.html lead with, and why:
 * the subject (the program perf started, {@link RunInfo#subjectPid}) or, when the trace does not
 * say which program that was, the busiest process. Nothing when --pid or --comm chose.
 */
public final class SubjectNote {
  private SubjectNote() {}

  /** The line, or "" when there is nothing to say. */
  public static String of(Analysis a) {
    ProcessLoad h = a.headline();
    if (h == null || !a.processSelection().isEmpty()) {
      return "";
    }
    RunInfo run = a.runs().stream().filter(r -> r.runId.equals(h.runId)).findFirst()
        .orElse(null);
    if (run == null) {
      return "";
    }
    int others = 0;
    int started = 0;
    for (ProcessLoad p : a.processes()) {
      if (p != h && p.pid != 0 && p.runId.equals(h.runId)) { // not the idle task
        others++;
        started += a.isSubject(p) && p.pid != run.subjectPid ? 1 : 0;
      }
    }
    String where = a.runs().size() == 1 ? "in the recording" : "in its run";
    String rest = others == 0 ? "" : "; " + others + " other " + processes(others) + " " + where
        + (started == 0 ? "" : " (" + started + " of them started by it)")
        + ": see summary.json";
    if (a.isSubject(h)) {
      String how = h.pid == run.subjectPid ? "the program perf started"
          : "started by " + name(a, run, run.subjectPid) + ", the program perf started";
      return "subject: " + Printable.escape(a.comm(h.runId, h.pid)) + " (pid "
          + ProcessKey.pid(h.pid) + ", " + how + rest + ")";
    }
    String busiest = "showing the busiest process, " + Printable.escape(a.comm(h.runId, h.pid))
        + " (pid " + ProcessKey.pid(h.pid) + "); choose another with --comm or -p";
    if (run.hasSubject()) {
      return "subject: " + name(a, run, run.subjectPid) + ", the program perf started, has no"
          + " samples; " + busiest;
    }
    if (others == 0) {
      return "";
    }
    return "no subject: the trace does not say which program perf started (perf record -a"
        + " without a command, or perf script without --show-task-events); " + busiest + " ("
        + others + " other " + processes(others) + " " + where + ": see summary.json)";
  }

  private static String name(Analysis a, RunInfo run, int pid) {
    return Printable.escape(a.comm(run.runId, pid)) + " (pid " + ProcessKey.pid(pid) + ")";
  }

  private static String processes(int n) {
    return n == 1 ? "process" : "processes";
  }
}
