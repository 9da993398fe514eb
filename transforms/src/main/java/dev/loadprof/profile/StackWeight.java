package dev.loadprof.profile;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import java.io.Serializable;

/**
 * The samples of one process in one run that share a call stack and a load, summed. The key
 * includes the load, so the real (wall) time is exact: every sample in it weighs period/load.
 *
 * @param callStack the stack the samples share
 * @param count number of samples
 * @param cpuNs summed sample periods, in CPU nanoseconds
 */
public record StackWeight(String runId, int pid, int load, CallStack callStack, long count,
    long cpuNs) implements Serializable {

  /** @param stack leaf first */
  public StackWeight(String runId, int pid, int load, Frame[] stack, long count, long cpuNs) {
    this(runId, pid, load, new CallStack(stack), count, cpuNs);
  }

  /** The frames, leaf first. */
  public Frame[] stack() {
    return callStack.frames();
  }

  /** Real-time weight, rounded to whole ns the same way everywhere (pprof, reports). */
  public long wallNs() {
    return Math.round((double) cpuNs / load);
  }

  @Override
  public String toString() {
    return runId + "/" + pid + " load=" + load + " n=" + count + " cpu=" + cpuNs + " "
        + callStack;
  }
}
