package dev.loadprof.block;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
   * Samples of events not counted in ns that were weighted before the interval was fixed, by the
   * provisional interval they got: said at the end if it was far from the run's.
   */
  private final Map<Long, Long> provisionallyWeighted = new TreeMap<>();

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
   * The interval of a block finished now, with {@code samples} samples: fixed first if what was
   * noted tells it by now, else {@link #provisional}.
   */
  long forBlock(int samples, boolean periodIsNanoseconds) {
    if (frozenNs == 0 && canTell(periodIsNanoseconds)) {
      freeze();
    }
    long ns = provisional();
    if (frozenNs == 0 && !periodIsNanoseconds && samples > 0) {
      provisionallyWeighted.merge(ns, (long) samples, Long::sum);
    }
    return ns;
  }

  /**
   * Fixes the interval at the end of the run if the samples did not tell it before, and returns
   * the warnings: nothing measured for an event not counted in ns, or samples weighted by a
   * provisional interval more than 10 % from the run's.
   */
  List<String> finish(String sourceName, String event, boolean periodIsNanoseconds) {
    List<String> warnings = new ArrayList<>();
    if (frozenNs == 0 && !freeze() && !periodIsNanoseconds) {
      warnings.add(sourceName + ": could not measure the time between samples of " + event
          + "; assuming " + FALLBACK_NS + " ns.");
    }
    long off = 0;
    for (Map.Entry<Long, Long> e : provisionallyWeighted.entrySet()) {
      if (Math.abs(e.getKey() - frozenNs) * 10 > frozenNs) {
        off += e.getValue();
      }
    }
    if (off > 0) {
      warnings.add(sourceName + ": " + off + " samples of " + event + " in the first windows"
          + " count " + provisionallyWeighted.keySet() + " ns of CPU each, an interval measured"
          + " before there were enough samples, against the run's " + frozenNs + " ns: their CPU"
          + " and real time are off by that ratio (a longer --window measures it from more"
          + " samples)");
    }
    return warnings;
  }

  /**
   * True once what was noted tells the interval: one period of an event that counts nanoseconds
   * (its period is the interval), or enough gaps for a median of another event.
   */
  private boolean canTell(boolean periodIsNanoseconds) {
    return count >= (periodIsNanoseconds ? 1 : ENOUGH_GAPS);
  }

  /**
   * The interval for a block finished before it is fixed: the median so far, or the fallback
   * when nothing was noted (such a block has no sample of the run before it, so its repairs
   * concern threads that ran without being sampled).
   */
  private long provisional() {
    if (frozenNs != 0) {
      return frozenNs;
    }
    return count == 0 ? FALLBACK_NS : median();
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
  private boolean freeze() {
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
