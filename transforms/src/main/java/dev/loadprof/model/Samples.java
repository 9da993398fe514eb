package dev.loadprof.model;

import java.util.List;

/** A block's samples, sorted by time: who was sampled, with which period and stack. */
public final class Samples extends ColumnGroup<Samples> {
  private static final Layout<Samples> LAYOUT = new Layout<>("sample_count", Samples::new, List.of(
      Column.times("sample_time", s -> s.time, (s, v) -> s.time = v),
      Column.ints("sample_tid", s -> s.tid, (s, v) -> s.tid = v),
      Column.ints("sample_pid", s -> s.pid, (s, v) -> s.pid = v),
      Column.longs("sample_period", s -> s.period, (s, v) -> s.period = v),
      Column.ints("sample_stack", s -> s.stack, (s, v) -> s.stack = v),
      Column.intsOrUnknown("sample_cpu", s -> s.cpu, (s, v) -> s.cpu = v)));

  public long[] time = new long[0];
  public int[] tid = new int[0];
  public int[] pid = new int[0];
  /** Event counts; CPU nanoseconds for cpu-clock and task-clock. */
  public long[] period = new long[0];
  /** Index into the block's {@link StackTable}. */
  public int[] stack = new int[0];
  /**
   * The CPU each sample was taken on, or UNKNOWN_ID when the trace has no [cpu] column. A block
   * of CPU lanes is that CPU's; a block of thread lanes (a per-process recording) needs this to
   * select samples by CPU (-C), which only recordings made with --sample-cpu allow.
   */
  public int[] cpu = new int[0];

  public void add(long t, int threadId, int processId, long samplePeriod, int stackId,
      int sampleCpu) {
    ensureRoom();
    time[count] = t;
    tid[count] = threadId;
    pid[count] = processId;
    period[count] = samplePeriod;
    stack[count] = stackId;
    cpu[count] = sampleCpu;
    count++;
  }

  @Override
  Layout<Samples> layout() {
    return LAYOUT;
  }
}
