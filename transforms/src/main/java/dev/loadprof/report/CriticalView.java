package dev.loadprof.report;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.critical.CriticalPaths;
import dev.loadprof.critical.WhatIfRequest;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.wall.ThreadStates;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which processes get a critical path, and the values of their run it is computed from: the
 * subject's processes (the program perf started and its descendants); in a run that does not
 * say which program perf started, the process with the most samples, and the path says so.
 */
final class CriticalView {
  private final String processNamesNote;
  private final TreeMap<Integer, String> names;
  private final Map<Integer, long[]> forks;
  private final boolean hasWakers;
  private final long fromNs;
  private final long toNs;
  private final List<WhatIfRequest> whatIfs;

  /**
   * @param ranges the --time ranges resolved ({from, to} pairs), or null: the path ends at the
   *     end of the last
   */
  CriticalView(RunInfo run, long[] ranges, List<WhatIfRequest> whatIfs) {
    this.names = new TreeMap<>(run.processNames);
    this.forks = new TreeMap<>(run.threadForks);
    this.hasWakers = "cpu".equals(run.lanes) && run.health.get(TraceHealth.WAKEUP_RECORDS) > 0;
    this.processNamesNote = run.hasSubject() ? null
        : run.source + " does not say which program perf started (perf record -a or -p, or"
            + " text without task records): the critical path is computed for the process"
            + " with the most samples";
    long from = Long.MIN_VALUE;
    long to = Long.MAX_VALUE;
    if (ranges != null && ranges.length >= 2) {
      from = ranges[0];
      to = ranges[ranges.length - 1];
    }
    this.fromNs = from;
    this.toNs = to;
    this.whatIfs = whatIfs;
  }

  CriticalPath compute(ProcessAccumulator acc, ThreadStates.Replayed replayed, String comm) {
    long start = Math.max(acc.spanStartNs, fromNs);
    long end = Math.min(acc.spanEndNs, toNs);
    List<String> notes = processNamesNote == null ? List.of() : List.of(processNamesNote);
    return CriticalPaths.compute(new CriticalPaths.Input(replayed, start, end, acc.pid, comm,
        pid -> names.getOrDefault(pid, "pid " + ProcessKey.pid(pid)), forks, hasWakers,
        whatIfs, notes));
  }
}
