package dev.loadprof.profile;

import dev.loadprof.model.Frame;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The samples of one process in one run that share a call stack and a load, summed. The key
 * includes the load, so the real (wall) time is exact: every sample in it weighs period/load.
 *
 * @param stack leaf first
 * @param count number of samples
 * @param cpuNs summed sample periods, in CPU nanoseconds
 */
public record StackWeight(String runId, int pid, int load, Frame[] stack, long count, long cpuNs)
    implements Serializable {

  /** Real-time weight, rounded to whole ns the same way everywhere (pprof, reports). */
  public long wallNs() {
    return Math.round((double) cpuNs / load);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StackWeight s && runId.equals(s.runId) && pid == s.pid && load == s.load
        && Arrays.equals(stack, s.stack) && count == s.count && cpuNs == s.cpuNs;
  }

  @Override
  public int hashCode() {
    return ((runId.hashCode() * 31 + pid) * 31 + load) * 31 + Arrays.hashCode(stack);
  }

  @Override
  public String toString() {
    return runId + "/" + pid + " load=" + load + " n=" + count + " cpu=" + cpuNs + " "
        + Arrays.toString(stack);
  }
}
