package dev.loadprof.cli;

/**
 * A job that ran out of Java heap gets a line that says how to give it more, not a bare
 * "OutOfMemoryError": the heap is the launcher's -Xmx2g unless LOADPROF_JAVA_OPTS says otherwise,
 * and a profile with very many distinct stacks (a JVM-heavy system-wide recording) can need more.
 */
final class OutOfMemory {
  private OutOfMemory() {}

  /** The line for a failure caused by running out of heap, or null for any other failure. */
  static String advice(Throwable failure) {
    OutOfMemoryError oom = FailureCauses.find(failure, OutOfMemoryError.class);
    if (oom == null) {
      return null;
    }
    return advice(oom, Runtime.getRuntime().maxMemory());
  }

  static String advice(OutOfMemoryError oom, long maxHeapBytes) {
    long mb = maxHeapBytes >> 20;
    return "the job ran out of memory (" + oom.getMessage() + ", with a " + mb + " MB Java heap):"
        + " run it again with a larger heap, e.g. LOADPROF_JAVA_OPTS=-Xmx" + Math.max(2 * mb, 1024)
        + "m ./loadprof ... (a profile with millions of distinct stacks, or of switches, needs"
        + " more than the default -Xmx2g)";
  }
}
