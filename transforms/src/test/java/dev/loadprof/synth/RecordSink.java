package dev.loadprof.synth;

/**
 * Receives the records of a synthetic trace in output order. The text writer formats them; the
 * {@link Expected} accumulator counts them. A null thread means the CPU's idle task (swapper/N).
 */
interface RecordSink {
  /** Lines perf synthesizes at time 0 for tasks that existed before recording started. */
  void preamble(String comm, String text);

  void sample(long timeNs, int cpu, SynthThread thread, String function);

  /** {@code prevExited}: the prev thread is gone, so perf prints the ":-1 pid/-1" header. */
  void schedSwitch(long timeNs, int cpu, SynthThread prev, char prevState, boolean prevExited,
      SynthThread next, long period);

  void wakeup(long timeNs, int cpu, SynthThread running, SynthThread woken, int targetCpu);

  /** A PERF_RECORD_FORK / _EXIT / _COMM line; {@code text} starts with "PERF_RECORD_". */
  void task(long timeNs, int cpu, SynthThread header, String text);
}
