package dev.loadprof.block;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The typical time between two samples of a running thread, estimated from the first samples of
 * a run and then fixed, so that every later block of the run uses the same one. For events that
 * count nanoseconds it is the period; for others, the median gap between consecutive samples of a
 * thread on one CPU.
 *
 * <p>It is fixed only once the samples can tell it ({@link #canTell}): a recording may begin with
 * windows of switches and no sample (perf started before the program, a :u event on a quiet
 * machine), and fixing a guess there once put the run's every repair off by 375 us. Blocks
 * finished before then use {@link #provisional}.
 */
final class SampleIntervalEstimate {
  /** Samples of this many threads/gaps are enough to estimate the sample interval. */
  private static final int SIZE = 1001;
  /** Gaps between samples of other events that make a median worth fixing. */
  private static final int ENOUGH_GAPS = 101;
  /** Used only when a non-time event's samples never come close enough to measure a gap. */
  static final long FALLBACK_NS = 1_000_000;
  /** Gaps longer than this are a thread that slept, not the sampling rate. */
  private static final long MAX_GAP_NS = 100_000_000L;

  private final long[] candidates = new long[SIZE];
  private int count;
  private long frozenNs; // 0 until frozen
  private final Map<Long, Long> lastSampleOfCpuTid = new HashMap<>();

  /**
   * A sample's period can not be longer than the run so far ({@code spanNs}) plus a margin for
   * the first samples; counts of other events get 100 per ns, far above any CPU's rate.
   */
  static long longestPlausiblePeriod(long spanNs, long marginNs, boolean periodIsNanoseconds) {
    long ns = spanNs + marginNs;
    return periodIsNanoseconds ? ns : ns > Long.MAX_VALUE / 100 ? Long.MAX_VALUE : ns * 100;
  }

  /**
   * cpu-clock and task-clock count nanoseconds, with or without modifiers (":u") and terms
   * ("cpu-clock/freq=500/": frequency sampling still writes each sample's period in ns).
   */
  static boolean countsNanoseconds(String event) {
    String base = event.split("[:/]", 2)[0];
    return base.equals("cpu-clock") || base.equals("task-clock");
  }

  void note(int cpu, int tid, long timeNs, long period, boolean periodIsNanoseconds) {
    if (frozenNs != 0 || count == SIZE) {
      return;
    }
    if (periodIsNanoseconds) {
      if (period > 0) {
        candidates[count++] = period;
      }
      return;
    }
    long key = ((long) cpu << 32) | (tid & 0xffffffffL);
    Long previous = lastSampleOfCpuTid.put(key, timeNs);
    long gap = previous == null ? 0 : timeNs - previous;
    if (gap > 0 && gap < MAX_GAP_NS) {
      candidates[count++] = gap;
    }
  }

  /**
   * True once what was noted tells the interval: one period of an event that counts nanoseconds
   * (its period is the interval), or enough gaps for a median of another event.
   */
  boolean canTell(boolean periodIsNanoseconds) {
    return count >= (periodIsNanoseconds ? 1 : ENOUGH_GAPS);
  }

  /**
   * The interval for a block finished before it is fixed: the median so far, or the fallback
   * when nothing was noted (such a block has no sample of the run before it, so its repairs
   * concern threads that ran without being sampled).
   */
  long provisional() {
    if (frozenNs != 0) {
      return frozenNs;
    }
    return count == 0 ? FALLBACK_NS : median();
  }

  boolean isFrozen() {
    return frozenNs != 0;
  }

  /** The fixed interval; 0 before {@link #freeze}. */
  long nanos() {
    return frozenNs;
  }

  /**
   * Fixes the interval: the median of what was noted, or {@link #FALLBACK_NS} when nothing was.
   *
   * @return false when nothing could be measured and the fallback is used
   */
  boolean freeze() {
    lastSampleOfCpuTid.clear();
    if (count == 0) {
      frozenNs = FALLBACK_NS;
      return false;
    }
    frozenNs = median();
    return true;
  }

  private long median() {
    long[] sorted = Arrays.copyOf(candidates, count);
    Arrays.sort(sorted);
    return Math.max(1, sorted[sorted.length / 2]);
  }
}
