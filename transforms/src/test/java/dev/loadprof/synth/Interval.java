package dev.loadprof.synth;

/**
 * Ground truth: {@code thread} ran on {@code cpu} during [startNs, endNs) executing {@code function}.
 * Abutting intervals of the same thread on the same CPU are one stretch on the CPU (no switch
 * between them); {@code endState} is the prev_state printed when the thread leaves the CPU after
 * this interval: R preempted, S sleeping, X exited (non-leader thread), Z exited (leader).
 */
record Interval(int cpu, SynthThread thread, long startNs, long endNs, String function,
    char endState) {
  Interval {
    if (endNs <= startNs) {
      throw new IllegalArgumentException("empty interval " + startNs + ".." + endNs);
    }
  }

  long lengthNs() {
    return endNs - startNs;
  }
}
