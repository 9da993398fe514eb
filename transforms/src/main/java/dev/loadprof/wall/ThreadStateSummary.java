package dev.loadprof.wall;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.ThreadState;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a process's wall time went, over its span: the instants at which some of its threads
 * ran (on-CPU real time) and those at which none did (load 0, attributed to the waits in
 * progress), and its threads' time in each {@link ThreadState}. Times are nanoseconds; the
 * thread-seconds and attributed shares are doubles because shares split instants evenly.
 */
public final class ThreadStateSummary implements Serializable {
  /** A wait's thread, state and switch-out stack (empty when the trace has none). */
  public record Wait(int tid, ThreadState state, CallStack stack) implements Serializable {}

  /** A wait's state and stack, over all threads. */
  public record Cause(ThreadState state, CallStack stack) implements Serializable {}

  static final int RUNNING_ORDINAL = 0;
  static final int RUNNABLE_ORDINAL = ThreadState.RUNNABLE.ordinal();

  public long spanNs;
  public long onCpuRealNs;
  public long load0Ns;
  /** Thread-ns per state, indexed by ThreadState.ordinal(). */
  public double[] byStateNs = new double[ThreadState.values().length];
  public double runnableOwnNs;
  public double runnableOtherNs;
  /** Runnable time at which the thread's CPU was idle or not seen (a per-process recording). */
  public double runnableUnattributedNs;
  /** Runnable time by the process that held the CPU, by pid. */
  public Map<Integer, Double> runnableByPid = new HashMap<>();
  /**
   * Span ns lost to waiting for a CPU: at each instant with k threads running and r runnable,
   * the share r/(k+r) of it (the work done then would have taken k/(k+r) of the instant, had
   * every runnable thread run). Load-0 instants with a runnable thread count whole.
   */
  public double cpuWaitNs;
  /** The part of {@link #cpuWaitNs} at load 1 or more: the part that is in the real time. */
  public double cpuWaitOnCpuNs;
  /**
   * The part of {@link #cpuWaitNs} for CPUs that the process's own threads did not hold: with N
   * CPUs, the m = min(r, N-k) runnable threads that had a CPU free of the process's threads
   * would have run, so m/(k+m) of the instant is lost to the others (other processes, and the
   * scheduler's wake-up latency). NaN when the machine's CPUs are not known.
   */
  public double cpuWaitOthersNs = Double.NaN;
  /** The part of {@link #cpuWaitOthersNs} at load 1 or more (in the real time); NaN likewise. */
  public double cpuWaitOthersOnCpuNs = Double.NaN;
  /** Thread-ns of waits still open when the trace ended (counted to its end). */
  public double unfinishedNs;
  /** Off-CPU thread-ns per (thread, state, stack): the off-CPU profile. */
  public Map<Wait, Double> waits = new HashMap<>();
  /** Load-0 ns attributed to each (state, stack); the rest is {@link #load0UnattributedNs}. */
  public Map<Cause, Double> load0ByCause = new HashMap<>();
  /** The same per state, summed in replay order (so the figures never depend on map order). */
  public double[] load0ByStateNs = new double[ThreadState.values().length];
  /** Load-0 ns at which no thread of the process was known to wait. */
  public double load0UnattributedNs;
  /** Some switch-out said why its thread left; false for traces (and old archives) without. */
  public boolean hasStates;
  /** Some switch-out had a stack. */
  public boolean hasStacks;

  public double byState(ThreadState s) {
    return byStateNs[s.ordinal()];
  }

  /** Load-0 ns attributed to each state (unattributed load 0 counts as unknown). */
  public double[] load0ByState() {
    double[] out = load0ByStateNs.clone();
    out[ThreadState.UNKNOWN.ordinal()] += load0UnattributedNs;
    return out;
  }
}
