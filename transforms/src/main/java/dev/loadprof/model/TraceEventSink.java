package dev.loadprof.model;

/**
 * Receives the events of one trace, in the order the trace holds them (perf script prints them
 * sorted by time). A {@link TraceReader} for perf script text and, later, one for perf.data both
 * feed this interface, so everything downstream is independent of the input format.
 *
 * <p>Conventions: times are nanoseconds on the trace's clock; a pid or tid that the input does not
 * give is {@link #UNKNOWN_ID}; stacks are leaf first (index 0 is the function that was running).
 */
public interface TraceEventSink {
  int UNKNOWN_ID = Integer.MIN_VALUE;

  /**
   * A record of a sampling event (cpu-clock, task-clock, cycles, ...). {@code period} is in the
   * event's own unit: nanoseconds for cpu-clock and task-clock, a count for the others.
   */
  void sample(long timeNs, int cpu, int pid, int tid, String comm, String event, long period,
      Frame[] stack);

  /**
   * A sched:sched_switch record. {@code prevPid} is the pid from the record header (the process of
   * the thread switched out), UNKNOWN_ID when the header does not have it or says -1. A period
   * above 1 means perf frequency-sampled the tracepoint and this record stands for that many
   * switches: the others were lost. {@code prevState} is the kernel's state of the thread switched
   * out ("R", "R+" preempted; "S" sleeping; "D" uninterruptible, ...), and {@code prevStack} its
   * call chain at the switch (leaf first: where it waits), empty when the trace has none.
   */
  void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid, String prevComm,
      String prevState, int nextTid, String nextComm, Frame[] prevStack);

  /**
   * A context-switch record (PERF_RECORD_SWITCH of a per-thread recording, or
   * PERF_RECORD_SWITCH_CPU_WIDE): thread tid of process pid was switched in ({@code in}) or out
   * at timeNs. {@code cpu} is UNKNOWN_ID when the recording has no CPU column. Unlike
   * sched_switch, each record names one thread, so a thread's IN and OUT records give its own run
   * intervals whatever CPU it ran on. {@code preempt} is true for an OUT record that perf marks
   * "preempt": the thread was still runnable when it lost its CPU.
   */
  void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempt);

  /**
   * A sched:sched_wakeup or sched:sched_wakeup_new record: {@code tid} will run on targetCpu.
   * {@code wakerPid}/{@code wakerTid} are the record header's thread, the one that was running on
   * {@code cpu} when the record was written: usually the thread that woke {@code tid}.
   */
  void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid, String comm,
      int targetCpu);

  /**
   * PERF_RECORD_COMM: thread tid of process pid is (now) named comm; exec is true after exec.
   * cpu is the CPU the record was written on (the exec'ing thread's), or UNKNOWN_ID.
   */
  void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec);

  /** PERF_RECORD_FORK: thread tid of process pid was created by parentTid of parentPid. */
  void fork(long timeNs, int pid, int tid, int parentPid, int parentTid);

  /** PERF_RECORD_EXIT: thread tid of process pid exited. */
  void exit(long timeNs, int pid, int tid);

  /** PERF_RECORD_LOST or a similar note that the kernel dropped {@code count} records. */
  void lost(long timeNs, long count);

  /** A well-formed record of an event loadprof does not use (e.g. sched:sched_migrate_task). */
  void ignored(String event);

  /**
   * A line that could not be parsed. {@code lineNumber} is 1-based in the source; the reader goes
   * on with the next record.
   */
  void malformed(long lineNumber, String reason, String line);
}
