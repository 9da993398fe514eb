package dev.loadprof.profile;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import java.io.Serializable;

/**
 * The samples of one thread of a process in one run that share a call stack and a load, summed.
 * The key includes the load, so the real (wall) time is exact: every sample in it weighs
 * period/load. The profile keeps one per thread ({@code tid} label); the text reports see them
 * summed over the threads of a process ({@link ProcessStacks}), where tid is {@link #ALL_THREADS}.
 *
 * @param callStack the stack the samples share
 * @param count number of samples
 * @param cpuNs summed sample periods, in CPU nanoseconds
 */
public record StackWeight(String runId, int pid, int tid, int load, CallStack callStack,
    long count, long cpuNs) implements Serializable {
  /** The tid of a weight summed over all threads of its process. */
  public static final int ALL_THREADS = -1;

  /** @param stack leaf first */
  public StackWeight(String runId, int pid, int tid, int load, Frame[] stack, long count,
      long cpuNs) {
    this(runId, pid, tid, load, new CallStack(stack), count, cpuNs);
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
    return runId + "/" + pid + "/" + tid + " load=" + load + " n=" + count + " cpu=" + cpuNs + " "
        + callStack;
  }
}
