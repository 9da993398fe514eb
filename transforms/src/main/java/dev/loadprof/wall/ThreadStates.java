package dev.loadprof.wall;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.model.TraceEventSink;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replays a process's {@link ThreadMarks} into its threads' states over the whole span.
 *
 * <p>Each thread lives from its first mark to its last. It runs during its runs; between them it
 * waits, in the state of the switch-out that ended the run before (unknown when that switch said
 * nothing or was lost). A wait ends at the thread's next run: runs come from the run intervals,
 * which start a thread whose switch-in was lost at its wakeup or half a sample interval before
 * its first sample or switch-out, so a lost switch-in ends the wait there too. A wakeup splits a
 * sleep: after it the thread is runnable. A wait still open when the trace ends counts to the end
 * and is unfinished; a thread switched out dead (X, Z) ends there.
 *
 * <p>Load 0: at each instant of the span at which no thread of the process runs, every thread of
 * it waits; the instant is split evenly among them, each share going to its wait's state and
 * stack. The sweep keeps G(t), the integral of 1/(threads waiting) over load-0 instants, so a
 * wait's share is G(end) - G(start).
 */
public final class ThreadStates {
  private static final int RUNNING = ThreadStateSummary.RUNNING_ORDINAL;
  private static final int RUNNABLE = ThreadState.RUNNABLE.ordinal();
  private static final CallStack NO_STACK = new CallStack(new Frame[0]);
  private static final ThreadState[] STATES = ThreadState.values();

  private final ThreadMarks m;
  private final Pieces pieces;

  private final long traceEndNs;
  private final RunnableTails tails;

  private ThreadStates(ThreadMarks marks, long traceEndNs) {
    this.m = marks;
    this.traceEndNs = traceEndNs;
    // About two pieces per mark (a run and the wait after it; a woken sleep is two waits).
    this.pieces = new Pieces(2 * marks.count + 16);
    this.tails = new RunnableTails(marks);
  }

  /**
   * @param spanStartNs the process's span (its first and last run instants), whose instants
   *     are on-CPU real time or load 0; it starts earlier if one of its threads' first marks (a
   *     switch-out or a wakeup) does
   */
  public static ThreadStateSummary compute(ThreadMarks marks, long spanStartNs, long spanEndNs,
      WaitFilter filter) {
    return compute(marks, spanStartNs, spanEndNs, marks.traceEndNs, filter);
  }

  /**
   * @param traceEndNs where waits still open end: the run's end (the marks know only the last
   *     window their process was in)
   */
  public static ThreadStateSummary compute(ThreadMarks marks, long spanStartNs, long spanEndNs,
      long traceEndNs, WaitFilter filter) {
    return compute(marks, spanStartNs, spanEndNs, traceEndNs, filter, 0);
  }

  /**
   * @param cpus the machine's CPUs (a system-wide recording), 0 when not known: with them the
   *     CPU wait is split into the part for CPUs other processes held (interference)
   */
  public static ThreadStateSummary compute(ThreadMarks marks, long spanStartNs, long spanEndNs,
      long traceEndNs, WaitFilter filter, int cpus) {
    return compute(replay(marks, traceEndNs), spanStartNs, spanEndNs, filter, cpus);
  }

  /** The summary of a replay (one replay serves it and the {@link StateTimeline}). */
  public static ThreadStateSummary compute(Replayed r, long spanStartNs, long spanEndNs,
      WaitFilter filter, int cpus) {
    // A thread's life starts at its first event of any kind, not only at a run: a program whose
    // first record is a switch-out (it slept before it was ever sampled) waits from there.
    ThreadStateSummary s = new ThreadStateSummary();
    Sweep sweep = r.states.summarize(s, Math.min(spanStartNs, r.states.m.firstNs()), spanEndNs,
        filter, cpus);
    r.lastSweep = sweep;
    r.lastFilter = filter;
    return s;
  }

  /**
   * The threads' runs and waits, replayed once, unfiltered: for the summary and for views over
   * time (lanes).
   *
   * @param traceEndNs where waits still open end: the run's end
   */
  public static Replayed replay(ThreadMarks marks, long traceEndNs) {
    ThreadStates t = new ThreadStates(marks, Math.max(traceEndNs, marks.traceEndNs));
    t.replayThreads();
    return new Replayed(t);
  }

  /** A process's replayed threads. */
  public static final class Replayed {
    private final ThreadStates states;
    /** The sweep of the last summary computed from this replay, and its filter. */
    private Sweep lastSweep;
    private WaitFilter lastFilter;

    private Replayed(ThreadStates states) {
      this.states = states;
    }

    Pieces pieces() {
      return states.pieces;
    }

    /** The marks replayed. */
    public ThreadMarks marks() {
      return states.m;
    }

    /**
     * How many pieces the replay made: each thread's runs and waits, a thread's together and in
     * time order, threads by tid.
     */
    public int pieceCount() {
      return states.pieces.count;
    }

    public int pieceTid(int i) {
      return states.pieces.tid[i];
    }

    public long pieceStartNs(int i) {
      return states.pieces.start[i];
    }

    public long pieceEndNs(int i) {
      return states.pieces.end[i];
    }

    /** RUNNING for a run, else the state the thread waited in. */
    public ThreadState pieceState(int i) {
      return STATES[states.pieces.state[i]];
    }

    /** Where the thread waited: an index into the marks' stacks, or -1. */
    public int pieceStack(int i) {
      return states.pieces.stack[i];
    }

    /** A runnable wait's run mark (who held the CPU before it), or -1. */
    public int pieceRun(int i) {
      return states.pieces.run[i];
    }

    /**
     * The last summary's sweep, if it keeps the same instants as filter would (the same --time
     * ranges and --load range), else null. Its span may differ: the kept time H(b) - H(a)
     * between two instants within the pieces does not depend on the span, only on the pieces
     * and the filter (H grows by whole nanoseconds, so the difference is exact either way).
     */
    Sweep sweepFor(WaitFilter filter) {
      WaitFilter f = lastFilter;
      if (f == null || f.minLoad() != filter.minLoad() || f.maxLoad() != filter.maxLoad()
          || !Arrays.equals(f.timeRanges(), filter.timeRanges())) {
        return null;
      }
      return lastSweep;
    }
  }

  // ---------------------------------------------------------------- per thread

  private int tid;
  private boolean seen;
  private boolean off;
  /** Off after a run whose switch-out has not been seen (yet): the state may still come. */
  private boolean provisional;
  private long offSince;
  private int offState;
  private int offStack;
  private long wakeAt;
  private int lastCpu;

  private void replayThreads() {
    int[] order = MarkOrder.of(m);
    int start = 0;
    while (start < order.length) {
      int end = start;
      while (end < order.length && m.tid[order[end]] == m.tid[order[start]]) {
        end++;
      }
      replayThread(order, start, end);
      start = end;
    }
  }

  private void replayThread(int[] order, int from, int to) {
    tid = m.tid[order[from]];
    seen = false;
    off = false;
    provisional = false;
    wakeAt = Long.MIN_VALUE;
    lastCpu = Integer.MIN_VALUE;
    for (int k = from; k < to; k++) {
      int i = order[k];
      switch (m.kind[i]) {
        case ThreadMarks.RUN -> run(i);
        case ThreadMarks.OUT -> out(i);
        case ThreadMarks.WAKE -> wake(m.time[i]);
        default -> { } // a tail says who held a CPU, not what the thread did
      }
    }
    // A thread last seen running (its run ended with no switch-out) ended with the trace.
    if (off && !provisional) {
      closeWait(offSince, Math.max(offSince, traceEndNs), -1, true);
    }
  }

  private void run(int i) {
    if (off) {
      closeWait(offSince, m.time[i], i, false);
    }
    pieces.add(tid, m.time[i], m.end[i], RUNNING, -1, -1, m.code[i], false);
    seen = true;
    lastCpu = m.code[i];
    beginWait(m.end[i], ThreadState.UNKNOWN.ordinal(), -1);
    provisional = true;
    if (m.out[i] != ThreadMarks.NO_OUT) {
      out(m.end[i], m.out[i], m.stack[i]); // the switch-out that ended the run
    }
  }

  private void out(int i) {
    out(m.time[i], m.code[i], m.stack[i]);
  }

  private void out(long t, int code, int stack) {
    if (off && provisional && t >= offSince) {
      provisional = false;
      offState = ThreadState.ofCode(code).ordinal();
      offStack = stack;
    } else {
      if (off) {
        closeWait(offSince, t, -1, false);
      }
      beginWait(t, ThreadState.ofCode(code).ordinal(), stack);
    }
    seen = true;
    if (code == ThreadState.EXITED) {
      off = false;
    }
  }

  private void wake(long t) {
    if (!seen) {
      seen = true; // first seen being woken: runnable from here
      beginWait(t, RUNNABLE, -1);
    } else if (off && wakeAt == Long.MIN_VALUE && t > offSince && offState != RUNNABLE) {
      wakeAt = t;
      provisional = false;
    }
  }

  private void beginWait(long since, int state, int stack) {
    off = true;
    provisional = false;
    offSince = since;
    offState = state;
    offStack = stack;
    wakeAt = Long.MIN_VALUE;
  }

  private void closeWait(long a, long b, int run, boolean unfinished) {
    if (wakeAt > a && wakeAt < b) {
      pieces.add(tid, a, wakeAt, offState, offStack, -1, lastCpu, unfinished);
      pieces.add(tid, wakeAt, b, RUNNABLE, offStack, run, lastCpu, unfinished);
    } else if (b > a) {
      pieces.add(tid, a, b, offState, offStack, offState == RUNNABLE ? run : -1, lastCpu,
          unfinished);
    }
    off = false;
    wakeAt = Long.MIN_VALUE;
  }

  // ---------------------------------------------------------------- over the process

  private Sweep summarize(ThreadStateSummary s, long spanStart, long spanEnd, WaitFilter f,
      int cpus) {
    s.hasStates = m.sawStates;
    s.hasStacks = m.sawStacks;
    Sweep sweep = new Sweep(pieces, spanStart, spanEnd, f, s, cpus);
    Pieces p = pieces;
    // Each wait's sum in a cell, in the order the waits are first seen (then put in s.waits in
    // that order: the same sums and the same map as merging each piece). A thread's pieces come
    // together, so the last cell mostly serves the next piece without a lookup.
    Map<ThreadStateSummary.Wait, double[]> waitCells = new LinkedHashMap<>();
    double[] cell = null;
    int cellTid = 0;
    int cellState = -1;
    int cellStack = 0;
    for (int i = 0; i < p.count; i++) {
      if (!f.keepsThread(p.tid[i]) || !f.keepsCpu(p.cpu[i])) {
        continue;
      }
      double ns = sweep.keptOf(i);
      if (ns <= 0) {
        continue;
      }
      int state = p.state[i];
      s.byStateNs[state] += ns;
      if (state == RUNNING) {
        continue;
      }
      ThreadState st = STATES[state];
      CallStack stack = p.stack[i] < 0 ? NO_STACK : m.stacks.get(p.stack[i]);
      if (cell == null || p.tid[i] != cellTid || state != cellState || p.stack[i] != cellStack) {
        cell = waitCells.computeIfAbsent(new ThreadStateSummary.Wait(p.tid[i], st, stack),
            w -> new double[1]);
        cellTid = p.tid[i];
        cellState = state;
        cellStack = p.stack[i];
      }
      cell[0] += ns;
      double share = sweep.shareOf(i);
      if (share > 0) {
        s.load0ByCause.merge(new ThreadStateSummary.Cause(st, stack), share, Double::sum);
        s.load0ByStateNs[state] += share;
      }
      if (p.unfinished[i]) {
        s.unfinishedNs += ns;
      }
      if (state == RUNNABLE) {
        splitRunnable(s, p, i, ns);
      }
    }
    waitCells.forEach((w, sum) -> s.waits.put(w, sum[0]));
    return sweep;
  }

  /**
   * Runnable time goes to whoever held the CPU the thread then ran on, in the proportions its
   * run mark saw over the part of the wait it looked at (the run's window) and the tail marks
   * saw in the windows before; the rest is unattributed.
   */
  private void splitRunnable(ThreadStateSummary s, Pieces p, int i, double ns) {
    int r = p.run[i];
    double fraction = ns / (p.end[i] - p.start[i]);
    double own = 0;
    double other = 0;
    if (r >= 0) {
      long looked = m.time[r] - m.occupiedFrom[r];
      long overlap = p.end[i] - Math.max(p.start[i], m.occupiedFrom[r]);
      if (looked > 0 && overlap > 0) {
        double scale = fraction * overlap / looked;
        own = m.ownNs[r] * scale;
        other = m.otherNs[r] * scale;
        if (other > 0 && m.otherPid[r] != TraceEventSink.UNKNOWN_ID) {
          s.runnableByPid.merge(m.otherPid[r], other, Double::sum);
        }
      }
      double[] before = tails.held(p.tid[i], m.code[r], p.start[i], p.end[i], fraction,
          s.runnableByPid);
      own += before[0];
      other += before[1];
    }
    s.runnableOwnNs += own;
    s.runnableOtherNs += other;
    s.runnableUnattributedNs += Math.max(0, ns - own - other);
  }

  /** Waits and runs of all threads, as they were replayed. */
  static final class Pieces {
    int count;
    int[] tid;
    long[] start;
    long[] end;
    int[] state;
    int[] stack;
    int[] run;
    int[] cpu;
    boolean[] unfinished;

    Pieces() {
      this(16);
    }

    Pieces(int capacity) {
      tid = new int[capacity];
      start = new long[capacity];
      end = new long[capacity];
      state = new int[capacity];
      stack = new int[capacity];
      run = new int[capacity];
      cpu = new int[capacity];
      unfinished = new boolean[capacity];
    }

    void add(int t, long a, long b, int st, int sk, int r, int c, boolean open) {
      if (b <= a) {
        return;
      }
      if (count == tid.length) {
        int n = Math.max(16, count + (count >> 1));
        tid = Arrays.copyOf(tid, n);
        start = Arrays.copyOf(start, n);
        end = Arrays.copyOf(end, n);
        state = Arrays.copyOf(state, n);
        stack = Arrays.copyOf(stack, n);
        run = Arrays.copyOf(run, n);
        cpu = Arrays.copyOf(cpu, n);
        unfinished = Arrays.copyOf(unfinished, n);
      }
      tid[count] = t;
      start[count] = a;
      end[count] = b;
      state[count] = st;
      stack[count] = sk;
      run[count] = r;
      cpu[count] = c;
      unfinished[count] = open;
      count++;
    }
  }
}
