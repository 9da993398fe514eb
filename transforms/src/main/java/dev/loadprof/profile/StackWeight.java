package dev.loadprof.profile;

import dev.loadprof.model.Frame;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The samples of one thread of a process in one run that share a call stack and a load, summed.
 * The key includes the load, so the real (wall) time is exact: every sample in it weighs
 * period/load. The profile keeps one per thread ({@code tid} label); the text reports see them
 * summed over the threads of a process ({@link ProcessStacks}), where tid is {@link #ALL_THREADS}.
 *
 * @param stack leaf first
 * @param count number of samples
 * @param cpuNs summed sample periods, in CPU nanoseconds
 */
public record StackWeight(
    String runId, int pid, int tid, int load, Frame[] stack, long count, long cpuNs)
    implements Serializable {
  /** The tid of a weight summed over all threads of its process. */
  public static final int ALL_THREADS = -1;

  /** Real-time weight, rounded to whole ns the same way everywhere (pprof, reports). */
  public long wallNs() {
    return Math.round((double) cpuNs / load);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StackWeight s && runId.equals(s.runId) && pid == s.pid && tid == s.tid
        && load == s.load
        && Arrays.equals(stack, s.stack) && count == s.count && cpuNs == s.cpuNs;
  }

  @Override
  public int hashCode() {
    return (((runId.hashCode() * 31 + pid) * 31 + tid) * 31 + load) * 31 + Arrays.hashCode(stack);
  }

  @Override
  public String toString() {
    return runId + "/" + pid + "/" + tid + " load=" + load + " n=" + count + " cpu=" + cpuNs + " "
        + Arrays.toString(stack);
  }
}
