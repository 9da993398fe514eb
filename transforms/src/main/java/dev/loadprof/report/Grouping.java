package dev.loadprof.report;

import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Gathers an analysis's processes into the groups of its {@link GroupBy}, sorted by name. */
public final class Grouping {
  private Grouping() {}

  public static List<ProcessGroup> of(Analysis a) {
    Map<String, RunInfo> runs = new HashMap<>();
    for (RunInfo r : a.runs()) {
      runs.put(r.runId, r);
    }
    TreeMap<String, List<ProcessLoad>> members = new TreeMap<>();
    TreeMap<String, List<StackWeight>> stacks = new TreeMap<>();
    for (ProcessLoad p : a.processes()) {
      if (p.pid == 0) {
        continue; // the idle task: its "load" is idle CPUs, not parallelism
      }
      RunInfo run = runs.get(p.runId);
      if (run == null) {
        run = new RunInfo(); // a process without its run: group it as of an unknown host
        run.runId = p.runId;
      }
      String group = a.groupBy().groupOf(run, a.comm(p.runId, p.pid));
      members.computeIfAbsent(group, k -> new ArrayList<>()).add(p);
      stacks.computeIfAbsent(group, k -> new ArrayList<>()).addAll(a.filteredStacksOf(p));
    }
    List<ProcessGroup> out = new ArrayList<>();
    for (var e : members.entrySet()) {
      out.add(new ProcessGroup(e.getKey(), e.getValue(), stacks.get(e.getKey())));
    }
    return out;
  }
}
