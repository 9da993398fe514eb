package dev.loadprof.model;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import java.util.TreeMap;

/**
 * All events of one run on one CPU in one time window, column-wise: the unit of work of the
 * pipeline, so that Beam's per-element cost is paid once per block, not once per event.
 *
 * <p>A block is self-contained: {@link #carryIn} says what the CPU was doing at the window start,
 * so run intervals can be built from this block alone. Samples keep their stacks as indices into a
 * block-local stack table. After interval building, {@link #intervals} holds who ran when on this
 * CPU within the window.
 */
public final class EventBlock implements Serializable {
  public String runId = "";
  public int cpu;
  public long window;
  public long windowStartNs;
  public long windowEndNs;

  /** The run's first event; the earliest any interval may start. */
  public long runStartNs;
  /** The run's last event; meaningful only when {@link #cpuTail}. */
  public long runEndNs;
  /** True for the last block of this CPU: nothing runs on it after this window. */
  public boolean cpuTail;
  /** Typical time between samples of a running thread; half of it is the repair tolerance. */
  public long sampleIntervalNs;
  /** True when sample periods are CPU nanoseconds; else each sample stands for sampleIntervalNs. */
  public boolean periodIsNanoseconds = true;
  /**
   * True when {@link #cpu} is a thread id (a per-process recording's context-switch records):
   * its samples then come from that thread's own timer, not from one timer per CPU.
   */
  public boolean threadLane;

  public CpuState carryIn = new CpuState();

  /** Samples, sorted by time; their stacks index {@link #stackTable}. */
  public Samples samples = new Samples();
  /** sched_switch records on this CPU, sorted by time; pids resolved when the block was built. */
  public Switches switches = new Switches();
  /** sched_wakeup records whose target is this CPU, sorted by time. */
  public Wakeups wakeups = new Wakeups();
  /** Block-local stack table. */
  public StackTable stackTable = new StackTable();

  /** Filled by interval building: who ran on this CPU during the window (half-open, sorted). */
  public Intervals intervals;
  /** Filled by interval building: per-sample flags, see {@link #FLAG_CONTRADICTED}. */
  public byte[] sampleFlags;
  /** Health counters from interval building for this block (chain breaks repaired, ...). */
  public TreeMap<String, Long> health = new TreeMap<>();

  /** The sample's thread is not the one its own CPU's intervals say is running. */
  public static final byte FLAG_CONTRADICTED = 1;

  /**
   * A new block sharing this one's (immutable) event columns, without the fields that interval
   * building derives, so those can be filled without mutating this block.
   */
  public EventBlock withSameEvents() {
    EventBlock b = new EventBlock();
    b.runId = runId;
    b.cpu = cpu;
    b.window = window;
    b.windowStartNs = windowStartNs;
    b.windowEndNs = windowEndNs;
    b.runStartNs = runStartNs;
    b.runEndNs = runEndNs;
    b.cpuTail = cpuTail;
    b.sampleIntervalNs = sampleIntervalNs;
    b.periodIsNanoseconds = periodIsNanoseconds;
    b.threadLane = threadLane;
    b.carryIn = carryIn;
    b.samples = samples;
    b.switches = switches;
    b.wakeups = wakeups;
    b.stackTable = stackTable;
    return b;
  }

  /** CPU nanoseconds that sample i stands for. */
  public long sampleCpuNs(int i) {
    return periodIsNanoseconds ? samples.period[i] : sampleIntervalNs;
  }

  public void addHealth(String counter, long delta) {
    if (delta != 0) {
      health.merge(counter, delta, Long::sum);
    }
  }

  /** Equal in every field, derived ones included. */
  @Override
  public boolean equals(Object o) {
    return o instanceof EventBlock b && runId.equals(b.runId) && cpu == b.cpu
        && window == b.window && windowStartNs == b.windowStartNs
        && windowEndNs == b.windowEndNs && runStartNs == b.runStartNs && runEndNs == b.runEndNs
        && cpuTail == b.cpuTail && sampleIntervalNs == b.sampleIntervalNs
        && periodIsNanoseconds == b.periodIsNanoseconds && threadLane == b.threadLane
        && carryIn.equals(b.carryIn)
        && samples.equals(b.samples) && switches.equals(b.switches)
        && wakeups.equals(b.wakeups) && stackTable.equals(b.stackTable)
        && Objects.equals(intervals, b.intervals) && Arrays.equals(sampleFlags, b.sampleFlags)
        && health.equals(b.health);
  }

  @Override
  public int hashCode() {
    return (runId.hashCode() * 31 + cpu) * 31 + Long.hashCode(window);
  }

  @Override
  public String toString() {
    return "EventBlock{" + runId + " cpu=" + cpu + " window=" + window + " samples="
        + samples.count + " switches=" + switches.count + " wakeups=" + wakeups.count
        + " carryIn=" + carryIn
        + (cpuTail ? " tail" : "") + "}";
  }
}
