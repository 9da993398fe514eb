package dev.loadprof.model;

import java.io.Serializable;
import java.util.Arrays;
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

  public CpuState carryIn = new CpuState();

  // Samples, sorted by time.
  public int sampleCount;
  public long[] sampleTime = new long[0];
  public int[] sampleTid = new int[0];
  public int[] samplePid = new int[0];
  public long[] samplePeriod = new long[0];
  public int[] sampleStack = new int[0];

  // sched_switch records on this CPU, sorted by time; pids resolved when the block was built.
  public int switchCount;
  public long[] switchTime = new long[0];
  public int[] switchPrevTid = new int[0];
  public int[] switchPrevPid = new int[0];
  public int[] switchNextTid = new int[0];
  public int[] switchNextPid = new int[0];

  // sched_wakeup records whose target is this CPU, sorted by time.
  public int wakeupCount;
  public long[] wakeupTime = new long[0];
  public int[] wakeupTid = new int[0];

  /** Block-local stack table: stacks[i] lists frame indices, leaf first. */
  public Frame[] frames = new Frame[0];
  public int[][] stacks = new int[0][];

  /** Filled by interval building: who ran on this CPU during the window (half-open, sorted). */
  public Intervals intervals;
  /** Filled by interval building: per-sample flags, see {@link #FLAG_CONTRADICTED}. */
  public byte[] sampleFlags;
  /** Health counters from interval building for this block (chain breaks repaired, ...). */
  public TreeMap<String, Long> health = new TreeMap<>();

  /** The sample's thread is not the one its own CPU's intervals say is running. */
  public static final byte FLAG_CONTRADICTED = 1;

  /** Run intervals of one CPU in one window, column-wise. */
  public static final class Intervals implements Serializable {
    public int count;
    public long[] start = new long[0];
    public long[] end = new long[0];
    public int[] tid = new int[0];
    public int[] pid = new int[0];

    public void add(long s, long e, int t, int p) {
      if (e <= s) {
        return;
      }
      // Merge with the previous interval when the same thread simply continues.
      if (count > 0 && tid[count - 1] == t && pid[count - 1] == p && end[count - 1] == s) {
        end[count - 1] = e;
        return;
      }
      if (count == start.length) {
        int n = Math.max(8, count * 2);
        start = Arrays.copyOf(start, n);
        end = Arrays.copyOf(end, n);
        tid = Arrays.copyOf(tid, n);
        pid = Arrays.copyOf(pid, n);
      }
      start[count] = s;
      end[count] = e;
      tid[count] = t;
      pid[count] = p;
      count++;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Intervals i && count == i.count
          && Arrays.equals(start, 0, count, i.start, 0, count)
          && Arrays.equals(end, 0, count, i.end, 0, count)
          && Arrays.equals(tid, 0, count, i.tid, 0, count)
          && Arrays.equals(pid, 0, count, i.pid, 0, count);
    }

    @Override
    public int hashCode() {
      return count;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < count; i++) {
        b.append(i == 0 ? "" : ", ").append(pid[i]).append('/').append(tid[i]).append('@')
            .append(start[i]).append("..").append(end[i]);
      }
      return b.append(']').toString();
    }
  }

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
    b.carryIn = carryIn;
    b.sampleCount = sampleCount;
    b.sampleTime = sampleTime;
    b.sampleTid = sampleTid;
    b.samplePid = samplePid;
    b.samplePeriod = samplePeriod;
    b.sampleStack = sampleStack;
    b.switchCount = switchCount;
    b.switchTime = switchTime;
    b.switchPrevTid = switchPrevTid;
    b.switchPrevPid = switchPrevPid;
    b.switchNextTid = switchNextTid;
    b.switchNextPid = switchNextPid;
    b.wakeupCount = wakeupCount;
    b.wakeupTime = wakeupTime;
    b.wakeupTid = wakeupTid;
    b.frames = frames;
    b.stacks = stacks;
    return b;
  }

  /** CPU nanoseconds that sample i stands for. */
  public long sampleCpuNs(int i) {
    return periodIsNanoseconds ? samplePeriod[i] : sampleIntervalNs;
  }

  public void addHealth(String counter, long delta) {
    if (delta != 0) {
      health.merge(counter, delta, Long::sum);
    }
  }

  @Override
  public String toString() {
    return "EventBlock{" + runId + " cpu=" + cpu + " window=" + window + " samples=" + sampleCount
        + " switches=" + switchCount + " wakeups=" + wakeupCount + " carryIn=" + carryIn
        + (cpuTail ? " tail" : "") + "}";
  }
}
