package dev.loadprof.wall;

import dev.loadprof.codec.Varint;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.FrameCodec;
import dev.loadprof.model.TraceEventSink;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one process's threads did in some windows, as marks the whole-wall view is replayed from:
 * each thread's runs (from the run intervals, so they agree with the loads), its switch-outs
 * (state and stack) and its wakeups. Marks of different windows merge in any order; {@link
 * ThreadStates} sorts them. A window keeps only the marks the replay reads ({@link
 * WindowMarks}): a switch-out at the end of a run in the same window rides on the run mark.
 * They still grow with the run's switches: the replay needs them all at the end.
 *
 * <p>A run mark also says who held the CPU it ran on while the thread waited for it within its
 * window ({@link #ownNs}, {@link #otherNs} and the process that held it longest, {@link
 * #otherPid}, UNKNOWN_ID when none can be named; the rest was idle or unknown): runnable time is split by it.
 */
public final class ThreadMarks implements Serializable {
  public static final byte RUN = 0;
  public static final byte OUT = 1;
  public static final byte WAKE = 2;
  /**
   * Who held a CPU from a thread's last mark in a window, a preempted switch-out or a wakeup that
   * left it runnable, to the window's end: time, end, code (the CPU) and the run marks' holders.
   */
  public static final byte TAIL = 3;
  /** {@link #out} of a run whose switch-out is not attached to it. */
  public static final int NO_OUT = -1;

  public int count;
  public int[] tid = new int[0];
  public byte[] kind = new byte[0];
  /** RUN: start; OUT: the switch; WAKE: the wakeup. */
  public long[] time = new long[0];
  /** RUN, TAIL: end (exclusive). */
  public long[] end = new long[0];
  /** RUN, TAIL: the CPU (lane); OUT: the ThreadState code; WAKE: the waker's pid. */
  public int[] code = new int[0];
  /** OUT, and RUN with a switch-out: index into {@link #stacks}, or -1. */
  public int[] stack = new int[0];
  /**
   * RUN: the ThreadState code of the switch-out that ended it, when that switch is in the same
   * window (then it is not a mark of its own: see {@link #attachOut}), else {@link #NO_OUT}.
   * WAKE: the waker's tid (UNKNOWN_ID when not known), for the critical path's wake-up edges.
   */
  public int[] out = new int[0];
  /** RUN: where this window's look at the CPU before the run starts. */
  public long[] occupiedFrom = new long[0];
  public long[] ownNs = new long[0];
  public long[] otherNs = new long[0];
  public int[] otherPid = new int[0];

  /**
   * The process's CPU samples, for the critical path's profile: time, thread and stack (index
   * into {@link #stacks}), in the order added (sorted where they are read).
   */
  public int sampleCount;
  public long[] sampleTime = new long[0];
  public int[] sampleTid = new int[0];
  public int[] sampleStack = new int[0];

  /** Switch-out and sample stacks, each once. */
  public List<CallStack> stacks = new ArrayList<>();
  private transient Map<CallStack, Integer> stackIds;

  /** The latest instant these windows saw (the trace's end, for the last window). */
  public long traceEndNs = Long.MIN_VALUE;
  /** Some switch-out said why its thread left (a prev_state or a preempt flag). */
  public boolean sawStates;
  /** Some switch-out had a stack. */
  public boolean sawStacks;

  public void addRun(int threadId, long start, long stop, int cpu, long from, long own,
      long other, int otherProcess) {
    int i = room();
    tid[i] = threadId;
    kind[i] = RUN;
    time[i] = start;
    end[i] = stop;
    code[i] = cpu;
    stack[i] = -1;
    out[i] = NO_OUT;
    occupiedFrom[i] = from;
    ownNs[i] = own;
    otherNs[i] = other;
    otherPid[i] = otherProcess;
  }

  public void addOut(int threadId, long t, int stateCode, CallStack where) {
    int i = room();
    tid[i] = threadId;
    kind[i] = OUT;
    time[i] = t;
    end[i] = t;
    code[i] = stateCode;
    stack[i] = where == null ? -1 : stackId(where);
    out[i] = NO_OUT;
    otherPid[i] = TraceEventSink.UNKNOWN_ID;
  }

  public void addWake(int threadId, long t, int wakerPid) {
    addWake(threadId, t, wakerPid, TraceEventSink.UNKNOWN_ID);
  }

  public void addWake(int threadId, long t, int wakerPid, int wakerTid) {
    int i = room();
    tid[i] = threadId;
    kind[i] = WAKE;
    time[i] = t;
    end[i] = t;
    code[i] = wakerPid;
    stack[i] = -1;
    out[i] = wakerTid;
    otherPid[i] = TraceEventSink.UNKNOWN_ID;
  }

  public void addTail(int threadId, long from, long to, int cpu, long own, long other,
      int otherProcess) {
    addRun(threadId, from, to, cpu, from, own, other, otherProcess);
    kind[count - 1] = TAIL;
  }

  public void addSample(int threadId, long t, CallStack where) {
    if (sampleCount == sampleTime.length) {
      reserveSamples(Math.max(16, sampleCount + (sampleCount >> 1)));
    }
    sampleTime[sampleCount] = t;
    sampleTid[sampleCount] = threadId;
    sampleStack[sampleCount] = stackId(where);
    sampleCount++;
  }

  private void reserveSamples(int n) {
    if (n > sampleTime.length) {
      sampleTime = Arrays.copyOf(sampleTime, n);
      sampleTid = Arrays.copyOf(sampleTid, n);
      sampleStack = Arrays.copyOf(sampleStack, n);
    }
  }

  /**
   * Attaches the switch-out at a run's end to the run: the replay reads the run and then the
   * switch-out, as if the switch-out were the next mark of its thread.
   */
  public void attachOut(int run, int stateCode, CallStack where) {
    out[run] = stateCode;
    stack[run] = where == null ? -1 : stackId(where);
  }

  /**
   * Appends mark j of o (its stack interned here); returns its index. stackMap (as long as o's
   * stacks, zeros at first) remembers each of o's stacks' index here plus one, so that a stack
   * is looked up once, not once per mark.
   */
  int copyFrom(ThreadMarks o, int j, int[] stackMap) {
    int i = room();
    tid[i] = o.tid[j];
    kind[i] = o.kind[j];
    time[i] = o.time[j];
    end[i] = o.end[j];
    code[i] = o.code[j];
    stack[i] = mappedStack(o, o.stack[j], stackMap);
    out[i] = o.out[j];
    occupiedFrom[i] = o.occupiedFrom[j];
    ownNs[i] = o.ownNs[j];
    otherNs[i] = o.otherNs[j];
    otherPid[i] = o.otherPid[j];
    return i;
  }

  private int mappedStack(ThreadMarks o, int s, int[] stackMap) {
    if (s < 0) {
      return -1;
    }
    if (stackMap[s] == 0) {
      stackMap[s] = stackId(o.stacks.get(s)) + 1;
    }
    return stackMap[s] - 1;
  }

  /** The waker's tid of a WAKE mark (UNKNOWN_ID when not known). */
  public int wakerTid(int i) {
    return out[i];
  }

  /** The waker's process (key) of a WAKE mark (UNKNOWN_ID when not known). */
  public int wakerPid(int i) {
    return code[i];
  }

  /** The earliest mark: where the first of these threads was first seen (MAX_VALUE: none). */
  public long firstNs() {
    long first = Long.MAX_VALUE;
    for (int i = 0; i < count; i++) {
      if (kind[i] != TAIL) {
        first = Math.min(first, time[i]);
      }
    }
    return first;
  }

  public void noteEnd(long t) {
    traceEndNs = Math.max(traceEndNs, t);
  }

  /** Adds the marks of other (of other windows) to these. */
  public ThreadMarks mergeFrom(ThreadMarks o) {
    if (count + o.count > tid.length) {
      // Half again at least: many windows merged one by one are copied O(n) times in all.
      reserve(Math.max(count + o.count, tid.length + (tid.length >> 1)));
    }
    int n = count;
    System.arraycopy(o.tid, 0, tid, n, o.count);
    System.arraycopy(o.kind, 0, kind, n, o.count);
    System.arraycopy(o.time, 0, time, n, o.count);
    System.arraycopy(o.end, 0, end, n, o.count);
    System.arraycopy(o.code, 0, code, n, o.count);
    System.arraycopy(o.out, 0, out, n, o.count);
    System.arraycopy(o.occupiedFrom, 0, occupiedFrom, n, o.count);
    System.arraycopy(o.ownNs, 0, ownNs, n, o.count);
    System.arraycopy(o.otherNs, 0, otherNs, n, o.count);
    System.arraycopy(o.otherPid, 0, otherPid, n, o.count);
    int[] stackMap = new int[o.stacks.size()];
    for (int j = 0; j < o.count; j++) {
      stack[n + j] = mappedStack(o, o.stack[j], stackMap);
    }
    count = n + o.count;
    if (o.sampleCount > 0) {
      if (sampleCount + o.sampleCount > sampleTime.length) {
        // Half again at least, as for the marks: windows merged one by one.
        reserveSamples(Math.max(sampleCount + o.sampleCount,
            sampleTime.length + (sampleTime.length >> 1)));
      }
      System.arraycopy(o.sampleTime, 0, sampleTime, sampleCount, o.sampleCount);
      System.arraycopy(o.sampleTid, 0, sampleTid, sampleCount, o.sampleCount);
      for (int j = 0; j < o.sampleCount; j++) {
        sampleStack[sampleCount + j] = mappedStack(o, o.sampleStack[j], stackMap);
      }
      sampleCount += o.sampleCount;
    }
    traceEndNs = Math.max(traceEndNs, o.traceEndNs);
    sawStates |= o.sawStates;
    sawStacks |= o.sawStacks;
    return this;
  }

  /**
   * Beam coder encoding: the columns, then the stacks over one frame table. Times are written as
   * differences (from the mark before, from the mark's own time), and the columns a kind does
   * not use are left out.
   */
  public void write(Varint.Sink out) {
    out.writeInt(count);
    out.writeInts(tid, count);
    out.writeBytes(kind, count);
    long previous = 0;
    for (int i = 0; i < count; i++) {
      out.writeLong(time[i] - previous);
      previous = time[i];
      out.writeLong(end[i] - time[i]);
      out.writeInt(code[i]);
      if (kind[i] == OUT) {
        out.writeInt(stack[i]);
      } else if (kind[i] == WAKE) {
        out.writeInt(this.out[i]);
      } else if (kind[i] == RUN || kind[i] == TAIL) {
        if (kind[i] == RUN) {
          out.writeInt(this.out[i]);
          if (this.out[i] != NO_OUT) {
            out.writeInt(stack[i]);
          }
        }
        out.writeLong(time[i] - occupiedFrom[i]);
        out.writeLong(ownNs[i]);
        out.writeLong(otherNs[i]);
        out.writeInt(otherPid[i]);
      }
    }
    Map<Frame, Integer> frameIds = new HashMap<>();
    List<Frame> frames = new ArrayList<>();
    for (CallStack st : stacks) {
      for (Frame f : st.frames()) {
        if (frameIds.putIfAbsent(f, frames.size()) == null) {
          frames.add(f);
        }
      }
    }
    FrameCodec.writeTable(frames, out);
    out.writeInt(stacks.size());
    for (CallStack st : stacks) {
      out.writeInt(st.frames().length);
      for (Frame f : st.frames()) {
        out.writeInt(frameIds.get(f));
      }
    }
    out.writeLong(traceEndNs);
    out.writeBoolean(sawStates);
    out.writeBoolean(sawStacks);
    out.writeInt(sampleCount);
    long before = 0;
    for (int i = 0; i < sampleCount; i++) {
      out.writeLong(sampleTime[i] - before);
      before = sampleTime[i];
    }
    out.writeInts(sampleTid, sampleCount);
    out.writeInts(sampleStack, sampleCount);
  }

  public static ThreadMarks read(Varint.Source in) throws IOException {
    ThreadMarks m = new ThreadMarks();
    int n = in.readInt();
    m.reserve(n);
    m.count = n;
    int[] tids = in.readInts(n);
    System.arraycopy(tids, 0, m.tid, 0, n);
    byte[] kinds = in.readBytes(n);
    System.arraycopy(kinds, 0, m.kind, 0, n);
    long previous = 0;
    for (int i = 0; i < n; i++) {
      m.time[i] = previous + in.readLong();
      previous = m.time[i];
      m.end[i] = m.time[i] + in.readLong();
      m.code[i] = in.readInt();
      m.stack[i] = -1;
      m.out[i] = NO_OUT;
      m.otherPid[i] = TraceEventSink.UNKNOWN_ID;
      if (m.kind[i] == OUT) {
        m.stack[i] = in.readInt();
      } else if (m.kind[i] == WAKE) {
        m.out[i] = in.readInt();
      } else if (m.kind[i] == RUN || m.kind[i] == TAIL) {
        if (m.kind[i] == RUN) {
          m.out[i] = in.readInt();
          if (m.out[i] != NO_OUT) {
            m.stack[i] = in.readInt();
          }
        }
        m.occupiedFrom[i] = m.time[i] - in.readLong();
        m.ownNs[i] = in.readLong();
        m.otherNs[i] = in.readLong();
        m.otherPid[i] = in.readInt();
      }
    }
    Frame[] frames = FrameCodec.readTable(in);
    int stackCount = in.readInt();
    for (int i = 0; i < stackCount; i++) {
      Frame[] st = new Frame[in.readInt()];
      for (int f = 0; f < st.length; f++) {
        st[f] = frames[in.readInt()];
      }
      m.stacks.add(new CallStack(st));
    }
    m.traceEndNs = in.readLong();
    m.sawStates = in.readBoolean();
    m.sawStacks = in.readBoolean();
    int samples = in.readInt();
    m.reserveSamples(samples);
    long before = 0;
    for (int i = 0; i < samples; i++) {
      m.sampleTime[i] = before + in.readLong();
      before = m.sampleTime[i];
    }
    System.arraycopy(in.readInts(samples), 0, m.sampleTid, 0, samples);
    System.arraycopy(in.readInts(samples), 0, m.sampleStack, 0, samples);
    m.sampleCount = samples;
    return m;
  }

  private int stackId(CallStack s) {
    if (stackIds == null) {
      stackIds = new HashMap<>();
      for (int i = 0; i < stacks.size(); i++) {
        stackIds.put(stacks.get(i), i);
      }
    }
    Integer id = stackIds.get(s);
    if (id == null) {
      id = stacks.size();
      stacks.add(s);
      stackIds.put(s, id);
    }
    return id;
  }

  private int room() {
    if (count == tid.length) {
      reserve(Math.max(8, count * 2));
    }
    return count++;
  }

  /** Makes room for n marks in all. */
  private void reserve(int n) {
    if (n > tid.length) {
      tid = Arrays.copyOf(tid, n);
      kind = Arrays.copyOf(kind, n);
      time = Arrays.copyOf(time, n);
      end = Arrays.copyOf(end, n);
      code = Arrays.copyOf(code, n);
      stack = Arrays.copyOf(stack, n);
      out = Arrays.copyOf(out, n);
      occupiedFrom = Arrays.copyOf(occupiedFrom, n);
      ownNs = Arrays.copyOf(ownNs, n);
      otherNs = Arrays.copyOf(otherNs, n);
      otherPid = Arrays.copyOf(otherPid, n);
    }
  }
}
