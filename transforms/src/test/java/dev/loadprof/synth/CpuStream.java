package dev.loadprof.synth;

import java.util.List;

/**
 * The records of one CPU in time order, produced lazily: the few discrete records (switches,
 * wakeups, task events) are precomputed, samples are generated from the CPU's timer grid on the
 * fly. That keeps memory small however long the trace is.
 */
final class CpuStream {
  /** A precomputed record on this CPU. Lower {@code kind} goes first at equal times. */
  static final class Discrete {
    static final int TASK = 0;
    static final int WAKEUP = 1;
    static final int SWITCH = 2;

    final long timeNs;
    final int kind;
    final int seq;
    final SynthThread a; // switch prev / wakeup running / task header
    final SynthThread b; // switch next / wakeup woken
    final char state;
    final boolean prevExited;
    final long period;
    final String text;

    Discrete(long timeNs, int kind, int seq, SynthThread a, SynthThread b, char state,
        boolean prevExited, long period, String text) {
      this.timeNs = timeNs;
      this.kind = kind;
      this.seq = seq;
      this.a = a;
      this.b = b;
      this.state = state;
      this.prevExited = prevExited;
      this.period = period;
      this.text = text;
    }
  }

  final int cpu;
  private final List<Discrete> discrete;
  private final Interval[] intervals;
  private final long periodNs;
  private final boolean idleSamples;
  private final long windowStartNs;
  private final long windowEndNs;

  private int di;
  private int ii;
  private long nextSampleNs; // Long.MAX_VALUE when no more samples
  private Interval sampleOwner; // null = idle

  CpuStream(int cpu, List<Discrete> discrete, List<Interval> intervals, long periodNs,
      long gridOffsetNs, boolean idleSamples, long windowStartNs, long windowEndNs) {
    this.cpu = cpu;
    this.discrete = discrete;
    this.intervals = intervals.toArray(new Interval[0]);
    this.periodNs = periodNs;
    this.idleSamples = idleSamples;
    this.windowStartNs = windowStartNs;
    this.windowEndNs = windowEndNs;
    // The CPU's timer ticks at gridOffset + k * period, independently of what runs on it.
    long first = Math.floorDiv(windowStartNs - gridOffsetNs, periodNs) * periodNs + gridOffsetNs;
    if (first < windowStartNs) {
      first += periodNs;
    }
    nextSampleNs = first;
    seekSample();
  }

  boolean hasNext() {
    return di < discrete.size() || nextSampleNs != Long.MAX_VALUE;
  }

  long headTimeNs() {
    long d = di < discrete.size() ? discrete.get(di).timeNs : Long.MAX_VALUE;
    return Math.min(d, nextSampleNs);
  }

  /** Emits the head record. At equal times the discrete record goes first, so that a sample on a
   * switch instant belongs to the thread switched in, as with intervals [start, end). */
  void emitHead(RecordSink sink) {
    if (di < discrete.size() && discrete.get(di).timeNs <= nextSampleNs) {
      Discrete d = discrete.get(di++);
      switch (d.kind) {
        case Discrete.TASK -> sink.task(d.timeNs, cpu, d.a, d.text);
        case Discrete.WAKEUP -> sink.wakeup(d.timeNs, cpu, d.a, d.b, cpu);
        default -> sink.schedSwitch(d.timeNs, cpu, d.a, d.state, d.prevExited, d.b, d.period);
      }
      return;
    }
    sink.sample(nextSampleNs, cpu, sampleOwner == null ? null : sampleOwner.thread(),
        sampleOwner == null ? null : sampleOwner.function());
    nextSampleNs += periodNs;
    seekSample();
  }

  /** Moves nextSampleNs to the next tick that produces a sample (skipping idle ticks quickly). */
  private void seekSample() {
    while (nextSampleNs < windowEndNs) {
      while (ii < intervals.length && intervals[ii].endNs() <= nextSampleNs) {
        ii++;
      }
      if (ii < intervals.length && intervals[ii].startNs() <= nextSampleNs) {
        sampleOwner = intervals[ii];
        return;
      }
      if (idleSamples) {
        sampleOwner = null;
        return;
      }
      if (ii >= intervals.length) {
        break;
      }
      // Idle until the next interval: jump to its first tick.
      long start = intervals[ii].startNs();
      long ticks = Math.floorDiv(start - nextSampleNs + periodNs - 1, periodNs);
      nextSampleNs += Math.max(1, ticks) * periodNs;
    }
    nextSampleNs = Long.MAX_VALUE;
  }
}
