package dev.loadprof.wall;

import java.io.Serializable;
import java.util.Set;

/**
 * The profile's narrowing options as the whole-wall view applies them: --tid keeps those
 * threads' time, -C the time of threads that ran on (or, waiting, last left) those CPUs, --time
 * the instants in its ranges, --load the instants at which the process's load is in [A, B].
 * Loads and the threads that share an instant at load 0 are always counted whole.
 *
 * @param tids threads to keep; null = all
 * @param cpus CPUs to keep; null = all
 * @param cpuLanes false for a per-process recording, whose runs have no CPU: -C keeps none
 * @param timeRanges resolved --time ranges (start, end pairs); null = all
 * @param minLoad lowest load kept
 * @param maxLoad highest load kept
 */
public record WaitFilter(Set<Integer> tids, Set<Integer> cpus, boolean cpuLanes,
    long[] timeRanges, int minLoad, int maxLoad) implements Serializable {
  public static final WaitFilter ALL = new WaitFilter(null, null, true, null, 0,
      Integer.MAX_VALUE);

  boolean keepsThread(int tid) {
    return tids == null || tids.contains(tid);
  }

  boolean keepsCpu(int cpu) {
    return cpus == null || (cpuLanes && cpus.contains(cpu));
  }

  boolean keepsLoad(int load) {
    return load >= minLoad && load <= maxLoad;
  }
}
