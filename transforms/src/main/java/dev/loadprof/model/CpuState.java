package dev.loadprof.model;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What one CPU is doing at an instant, as far as the trace tells: the state a {@link CpuTimeline}
 * carries from one window into the next. It is small (a few fields plus the wakeups seen while the
 * CPU was idle), so a block can carry it and be processed on its own.
 */
public final class CpuState implements Serializable {
  public enum Kind {
    /** Nothing seen on this CPU yet. */
    UNKNOWN,
    /** The idle task runs (by the switch chain, or by an idle sample). */
    IDLE,
    /** A thread runs. */
    RUNNING
  }

  public Kind kind = Kind.UNKNOWN;
  public int tid;
  public int pid;
  /** RUNNING: when the thread started; IDLE: when the CPU went idle. */
  public long sinceNs;
  /** RUNNING: the latest sample of the thread in this stint (sinceNs if none). */
  public long lastEvidenceNs;
  /**
   * The latest sample on this CPU of any thread, the idle task too (Long.MIN_VALUE if none yet):
   * with one sampling timer per CPU it dates the timer's ticks (see CpuTimeline).
   */
  public long lastTickNs = Long.MIN_VALUE;
  /** IDLE/UNKNOWN: wakeups targeted at this CPU since it went idle (tid, time), most recent last. */
  public int[] wakeTids = new int[0];
  public long[] wakeTimes = new long[0];

  public CpuState copy() {
    CpuState c = new CpuState();
    c.kind = kind;
    c.tid = tid;
    c.pid = pid;
    c.sinceNs = sinceNs;
    c.lastEvidenceNs = lastEvidenceNs;
    c.lastTickNs = lastTickNs;
    c.wakeTids = wakeTids.clone();
    c.wakeTimes = wakeTimes.clone();
    return c;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CpuState s && kind == s.kind && tid == s.tid && pid == s.pid
        && sinceNs == s.sinceNs && lastEvidenceNs == s.lastEvidenceNs && lastTickNs == s.lastTickNs
        && Arrays.equals(wakeTids, s.wakeTids) && Arrays.equals(wakeTimes, s.wakeTimes);
  }

  @Override
  public int hashCode() {
    return (kind.hashCode() * 31 + tid) * 31 + Long.hashCode(sinceNs);
  }

  @Override
  public String toString() {
    return kind + (kind == Kind.RUNNING ? "(" + pid + "/" + tid + " since " + sinceNs + ")" : "");
  }
}
