package dev.loadprof.profile;

import dev.loadprof.model.RunInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The comm of a (run, pid): ProcessLoad's comm when known, else the run's process name table,
 * else "pid N". One place, so that pprof labels, folded stacks and reports agree.
 */
public final class ProcessNames {
  private final Map<String, String> comms = new HashMap<>();
  private final Map<String, RunInfo> runs = new HashMap<>();

  public ProcessNames(List<RunInfo> runs, List<ProcessLoad> processes) {
    for (RunInfo r : runs) {
      this.runs.put(r.runId, r);
    }
    for (ProcessLoad p : processes) {
      if (p.comm != null && !p.comm.isEmpty()) {
        comms.put(key(p.runId, p.pid), p.comm);
      }
    }
  }

  public String comm(String runId, int pid) {
    String comm = comms.get(key(runId, pid));
    if (comm != null) {
      return comm;
    }
    RunInfo run = runs.get(runId);
    return run == null ? "pid " + pid : run.processName(pid);
  }

  private static String key(String runId, int pid) {
    return runId + "\u0000" + pid;
  }
}
