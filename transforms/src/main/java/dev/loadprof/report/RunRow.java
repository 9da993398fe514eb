package dev.loadprof.report;

import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of the per-run table (runs.txt, summary.json run_table, the console): a run and its
 * headline process: after the filters, the subject's process with most samples (the program
 * perf started, {@link Analysis#headline()}), else the process with most samples.
 *
 * @param headline null when no process of the run passed the filters
 * @param comm the headline's name, null without a headline
 */
public record RunRow(RunInfo run, ProcessLoad headline, String comm) {

  /** One row per run, in run id order (the order of {@link Analysis#runs()}). */
  public static List<RunRow> of(Analysis a) {
    List<RunRow> rows = new ArrayList<>();
    for (RunInfo r : a.runs()) {
      ProcessLoad h = headlineOf(a, r.runId);
      rows.add(new RunRow(r, h, h == null ? null : a.comm(h.runId, h.pid)));
    }
    return rows;
  }

  /** As {@link Analysis#headline()}, within one run: pid 0 only when it is all there is. */
  static ProcessLoad headlineOf(Analysis a, String runId) {
    ProcessLoad idle = null;
    for (ProcessLoad p : a.processes()) { // already the subject first, then most samples
      if (!p.runId.equals(runId)) {
        continue;
      }
      if (p.pid != 0) {
        return p;
      }
      idle = p;
    }
    return idle;
  }

  public String runId() {
    return run.runId;
  }

  public String host() {
    return run.host;
  }

  /** Real time of the headline from samples, rounded as summary.json's wall_ns; 0 without one. */
  public long wallNs() {
    return headline == null ? 0 : Math.round(headline.wallNs());
  }

  public long cpuNs() {
    return headline == null ? 0 : headline.cpuNs;
  }

  public double avgLoad() {
    return headline == null ? 0 : headline.avgLoad();
  }

  /** Not defined without a headline, or when it never ran. */
  public SerialFraction serialFraction() {
    return headline == null ? new SerialFraction(0, 0) : SerialFraction.of(headline.timeAtLoadNs);
  }
}
