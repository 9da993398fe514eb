package dev.loadprof.block;

import dev.loadprof.load.CpuTimeline;
import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.ThreadState;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import static dev.loadprof.model.TraceEventSink.UNKNOWN_ID;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Cuts the event stream of one run into blocks of (lane, time window) and hands each block on as
 * soon as its window is over, so memory is bounded by one window per lane, not by the trace. A
 * lane is a CPU, or a thread in a per-process recording ({@link Lanes}).
 *
 * <p>It also keeps what only a sequential pass can know: which process each thread belongs to
 * ({@link ThreadTable}), which sampling event is used and how often it samples ({@link
 * SampleIntervalEstimate}), and what each CPU was doing when a window starts (the carry-in, from
 * replaying the previous block). At the end it judges whether the run can be used ({@link
 * UnusablePolicy}).
 */
public final class BlockBuilder implements TraceEventSink {
  private final String runId;
  private final String sourceName;
  private boolean fromPerfData;
  private final long windowNs;
  private final String wantedEvent;
  private final Consumer<EventBlock> out;
  private final RunInfo info = new RunInfo();
  private final TraceHealth health = info.health;
  private final ThreadTable threads = new ThreadTable(info);
  private final SampleIntervalEstimate interval = new SampleIntervalEstimate();
  private final Map<Integer, OpenBlock> openByCpu = new TreeMap<>();
  private final Lanes lanes = new Lanes();
  private final CompleteWindows complete = new CompleteWindows();
  private final FarJumpGate gate;
  private final TimeDamage damage = new TimeDamage();
  /** Whether any sample has a caller under its own frame: false for perf record without -g. */
  private boolean sawCallChain;

  private boolean sawRecord;
  private boolean layoutChecked;
  private long firstNs = Long.MAX_VALUE;
  private long lastNs = Long.MIN_VALUE;

  /**
   * How blocks are built from a trace, raised when a fix changes the blocks of the same trace, so
   * that an archive rebuilds runs of an older version (ArchiveRules). 1 (2026-11-27): the sample
   * interval is fixed only once the samples tell it. 2 (2026-11-27): each CPU's carried state
   * keeps its last sample, which dates runs never sampled (CpuTimeline). 3 (2026-11-27): a
   * per-process recording's program runs from its exec.
   */
  public static final int BLOCKS_VERSION = 3;

  /** A running thread is carried through at most this many windows (or FAR_NS) without a record. */
  static final int MAX_CARRY_WINDOWS = 16;

  /** A record this far (or a window, if longer) from the run's time is held back or skipped. */
  static final long FAR_NS = 10_000_000_000L;

  /**
   * @param wantedEvent the sampling event to use, or null for the first one the trace has
   * @param out receives each finished block
   */
  public BlockBuilder(String runId, String sourceName, long windowNs, String wantedEvent,
      Consumer<EventBlock> out) {
    if (windowNs <= 0) {
      throw new IllegalArgumentException("window must be positive: " + windowNs);
    }
    this.runId = runId;
    this.sourceName = sourceName;
    this.windowNs = windowNs;
    this.wantedEvent = wantedEvent;
    this.out = out;
    info.runId = runId;
    info.source = sourceName;
    info.requestedEvent = wantedEvent == null ? "" : wantedEvent;
    this.gate = new FarJumpGate(Math.max(FAR_NS, 2 * windowNs));
  }

  /**
   * The records come from a perf.data file that loadprof decoded itself (perf script with
   * --show-task-events and every field), so the warnings give no advice about perf script.
   */
  public void decodedFromPerfData() {
    fromPerfData = true;
  }

  /** Tells {@code completeBefore} each time the windows before a later one are complete. */
  public void onWindowsComplete(LongConsumer completeBefore) {
    complete.listen(completeBefore);
  }

  // ---------------------------------------------------------------- TraceEventSink

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    if (gate.passes(sawRecord, lastNs, timeNs) || !outsideRun(timeNs, cpu,
        TraceHealth.SAMPLE_RECORDS, TraceHealth.SAMPLES_OUTSIDE_RUN,
        () -> addSample(timeNs, cpu, pid, tid, comm, event, period, stack))) {
      addSample(timeNs, cpu, pid, tid, comm, event, period, stack);
    }
  }

  private void addSample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    health.increment(TraceHealth.SAMPLE_RECORDS);
    sawCallChain |= stack != null && stack.length > 1;
    if (info.samplingEvent.isEmpty()) {
      if (wantedEvent != null && !wantedEvent.equals(event)) {
        health.increment(TraceHealth.SAMPLES_OTHER_EVENT);
        info.countUnusedEvent(event);
        return;
      }
      info.samplingEvent = event;
      info.periodIsNanoseconds = SampleIntervalEstimate.countsNanoseconds(event);
    } else if (!info.samplingEvent.equals(event)) {
      health.increment(TraceHealth.SAMPLES_OTHER_EVENT);
      info.countUnusedEvent(event);
      return;
    }
    if (tid == UNKNOWN_ID) {
      // "-1/-1": the kernel could not tell whose sample this is; it says nothing about who ran.
      health.increment(TraceHealth.SAMPLES_UNKNOWN_THREAD);
      return;
    }
    if (period > SampleIntervalEstimate.longestPlausiblePeriod(
        sawRecord ? Math.max(0, timeNs - firstNs) : 0, FAR_NS, info.periodIsNanoseconds)) {
      health.increment(TraceHealth.SAMPLES_PERIOD_TOO_LONG);
      damage.longPeriod(cpu, timeNs, period);
      return;
    }
    detectLayout(pid);
    int resolved = threads.learn(pid, tid, comm);
    if (cpu == UNKNOWN_ID) {
      lanes.decide(Lanes.Kind.THREADS); // only a thread's own lane can hold a sample without a CPU
    } else {
      lanes.noteSampleCpu(cpu);
    }
    if (lanes.isKnown()) { // as whenKnown does, without a closure per sample
      placeSample(timeNs, cpu, resolved, tid, period, stack);
    } else {
      lanes.whenKnown(() -> placeSample(timeNs, cpu, resolved, tid, period, stack));
    }
  }

  private void placeSample(long timeNs, int cpu, int pid, int tid, long period, Frame[] stack) {
    OpenBlock b = blockFor(lanes.of(cpu, tid), timeNs, TraceHealth.OUT_OF_ORDER_SAMPLES);
    if (b == null) {
      return;
    }
    interval.note(cpu, tid, timeNs, period, info.periodIsNanoseconds);
    b.addSample(timeNs, tid, pid, period, stack, cpu);
  }

  /**
   * A per-thread switch record: on the thread's own lane, IN is "idle ==> tid" and OUT is "tid
   * ==> idle", so a missing IN or OUT is a chain break repaired like any other.
   */
  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempt) {
    if (lanes.byCpu()) {
      ignored(in ? "PERF_RECORD_SWITCH IN (sched_switch gives the loads)"
          : "PERF_RECORD_SWITCH OUT (sched_switch gives the loads)");
      return;
    }
    if (outsideRun(timeNs, tid, TraceHealth.SWITCH_RECORDS, TraceHealth.SWITCHES_OUTSIDE_RUN,
        () -> addContextSwitch(timeNs, pid, tid, comm, in, preempt))) {
      return;
    }
    addContextSwitch(timeNs, pid, tid, comm, in, preempt);
  }

  private void addContextSwitch(long timeNs, int pid, int tid, String comm, boolean in,
      boolean preempt) {
    health.increment(TraceHealth.SWITCH_RECORDS);
    lanes.decide(Lanes.Kind.THREADS);
    if (tid == 0 || tid == UNKNOWN_ID) {
      health.increment(TraceHealth.IDLE_SWITCH_RECORDS); // the idle task of a CPU-wide record
      return;
    }
    detectLayout(pid);
    int resolved = threads.learn(pid, tid, comm);
    OpenBlock b = blockFor(tid, timeNs, TraceHealth.OUT_OF_ORDER_SWITCHES);
    if (b == null) {
      return;
    }
    lanes.noteSwitch(tid, in);
    if (in) {
      b.switches.add(timeNs, 0, 0, tid, resolved);
    } else {
      // A per-thread OUT record says only whether the thread was preempted (still runnable).
      b.switches.add(timeNs, tid, resolved, 0, 0,
          (preempt ? ThreadState.RUNNABLE : ThreadState.UNKNOWN).code(), UNKNOWN_ID);
    }
  }

  /** The first record with a thread tells whether the trace prints pids (see ThreadTable). */
  private void detectLayout(int headerPid) {
    threads.detectLayout(!layoutChecked, headerPid);
    layoutChecked = true;
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
    if (lanes.byThread()) {
      ignored("sched:sched_switch (context-switch records give the loads)");
      health.increment(TraceHealth.PER_THREAD_SCHED_SWITCHES);
      return;
    }
    if (gate.passes(sawRecord, lastNs, timeNs) || !outsideRun(timeNs, cpu,
        TraceHealth.SWITCH_RECORDS, TraceHealth.SWITCHES_OUTSIDE_RUN,
        () -> addSwitch(timeNs, cpu, period, prevPid, prevTid, prevComm, prevState, nextTid,
            nextComm, prevStack))) {
      addSwitch(timeNs, cpu, period, prevPid, prevTid, prevComm, prevState, nextTid, nextComm,
          prevStack);
    }
  }

  private void addSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
    lanes.decide(Lanes.Kind.CPUS);
    health.increment(TraceHealth.SWITCH_RECORDS);
    if (period > 1) {
      health.increment(TraceHealth.FREQ_SAMPLED_SWITCH_RECORDS);
      health.add(TraceHealth.SWITCHES_LOST_TO_SAMPLING, period - 1);
    }
    if (prevState != null && prevState.startsWith("X")) {
      health.increment(TraceHealth.EXITED_THREAD_SWITCHES);
    }
    detectLayout(prevPid);
    int resolvedPrev = threads.learn(prevPid, prevTid, prevComm);
    int resolvedNext = threads.pidOf(nextTid, nextComm);
    OpenBlock b = blockFor(cpu, timeNs, TraceHealth.OUT_OF_ORDER_SWITCHES);
    if (b != null) {
      if (prevTid == 0) {
        b.switches.add(timeNs, prevTid, resolvedPrev, nextTid, resolvedNext);
      } else {
        b.addSwitch(timeNs, prevTid, resolvedPrev, nextTid, resolvedNext,
            ThreadState.codeOfPrevState(prevState), prevStack);
      }
    }
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid, String comm,
      int targetCpu) {
    if (outsideRun(timeNs, targetCpu, TraceHealth.WAKEUP_RECORDS,
        TraceHealth.WAKEUPS_OUTSIDE_RUN,
        () -> addWakeup(timeNs, wakerPid, wakerTid, tid, comm, targetCpu))) {
      return;
    }
    addWakeup(timeNs, wakerPid, wakerTid, tid, comm, targetCpu);
  }

  private void addWakeup(long timeNs, int wakerPid, int wakerTid, int tid, String comm,
      int targetCpu) {
    health.increment(TraceHealth.WAKEUP_RECORDS);
    int pid = threads.pidOf(tid, comm);
    lanes.whenKnown(() -> {
      OpenBlock b = blockFor(lanes.of(targetCpu, tid), timeNs, TraceHealth.OUT_OF_ORDER_WAKEUPS);
      if (b != null) {
        b.wakeups.add(timeNs, tid, wakerTid,
            wakerTid == UNKNOWN_ID ? UNKNOWN_ID : threads.pidOf(wakerTid, null), pid);
      }
    });
  }

  @Override
  public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
    health.increment(TraceHealth.TASK_RECORDS);
    int before = threads.comm(timeNs, pid, tid, comm, exec);
    // A per-process recording begins at the program's exec (perf enables its events there):
    // the thread is running from that instant, not from its first sample.
    boolean startsRun = exec && !sawRecord;
    if (before != UNKNOWN_ID
        && (startsRun || sawRecord && timeNs >= firstNs && timeNs <= lastNs + windowNs)) {
      int after = threads.pidOf(tid, comm);
      // The thread that called exec runs on: from this instant it runs for the new process.
      lanes.whenKnown(() -> {
        if (lanes.byCpu() && cpu == UNKNOWN_ID) {
          return;
        }
        OpenBlock b = blockFor(lanes.of(cpu, tid), timeNs, TraceHealth.EXEC_SWITCHES_LATE);
        if (b != null) {
          b.switches.add(timeNs, startsRun ? 0 : tid, startsRun ? 0 : before, tid, after);
        }
      });
    }
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    health.increment(TraceHealth.TASK_RECORDS);
    threads.fork(timeNs, pid, tid, parentPid, parentTid);
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    // The thread's tid stays mapped: "-1" switch records of the dead thread follow its exit.
    health.increment(TraceHealth.TASK_RECORDS);
    if (lanes.byThread() && lanes.isIn(tid) && sawRecord && timeNs >= firstNs) {
      // A per-thread recording has no OUT record for a thread's last switch (its event is
      // gone with it): without this its lane stayed on a CPU, and the load exceeded the CPUs.
      OpenBlock b = blockFor(tid, timeNs, TraceHealth.OUT_OF_ORDER_SWITCHES);
      if (b != null) {
        lanes.noteSwitch(tid, false);
        b.switches.add(timeNs, tid, threads.pidOf(tid, null), 0, 0, ThreadState.EXITED,
            UNKNOWN_ID);
      }
    }
  }

  @Override
  public void lost(long timeNs, long count) {
    info.losses.lost(timeNs, count); // counted in the health at the end, each drop once
  }

  @Override
  public void ignored(String event) {
    health.increment(TraceHealth.IGNORED_RECORDS);
  }

  @Override
  public void malformed(long lineNumber, String reason, String line) {
    health.increment(TraceHealth.MALFORMED_LINES);
    health.addMalformedExample(sourceName + ":" + lineNumber + ": " + reason + ": "
        + (line.length() > 120 ? line.substring(0, 120) + "..." : line));
  }

  // ---------------------------------------------------------------- end of the run

  /**
   * Flushes the last blocks of every CPU and returns what is known of the run, with its verdict
   * ({@link RunInfo#unusableReason}).
   */
  public RunInfo finish() {
    gate.finish();
    lanes.decide(Lanes.Kind.CPUS);
    info.warnings.addAll(interval.finish(sourceName, info.samplingEvent, info.periodIsNanoseconds));
    long runEnd = sawRecord ? lastNs : 0;
    info.cpuCount = lanes.cpuCount(openByCpu.size());
    info.lanes = lanes.byThread() ? "thread" : "cpu";
    if (lanes.byThread()) {
      health.add(TraceHealth.THREADS_IN_AT_END, lanes.threadsInAtEnd());
      health.add(TraceHealth.THREAD_LANES, 1);
    }
    for (OpenBlock b : openByCpu.values()) {
      emitTail(b, runEnd);
    }
    openByCpu.clear();
    info.startNs = sawRecord ? firstNs : 0;
    info.endNs = runEnd;
    info.sampleIntervalNs = interval.nanos();
    info.layout = threads.plainLayout() ? "plain" : "fields";
    info.pidSource = threads.plainLayout() ? "comm" : "trace";
    threads.nameRestartsApart();
    threads.countUnknownThreadSwitches();
    health.add(TraceHealth.LOST_EVENTS, info.losses.totalLost());
    RunWarnings.add(info, sourceName, threads.plainLayout(), lanes.byThread(), fromPerfData);
    damage.warn(info, sourceName);
    // A few samples may all be leaf-only in a recording with -g (idle, a leaf without frame
    // pointers); hundreds of them never are.
    if (!sawCallChain && health.get(TraceHealth.SAMPLE_RECORDS) >= 100) {
      info.warnings.add(sourceName + ": no sample has a call chain (perf record without -g):"
          + " each sample counts for its own function only, so the callers' figures"
          + " (cumulative time, flame graph) are missing; record with perf record -g");
    }
    UnusablePolicy.judge(info);
    return info;
  }

  // ---------------------------------------------------------------- blocks

  private OpenBlock blockFor(int cpu, long timeNs, String outOfOrderCounter) {
    info.losses.record(timeNs); // the records around perf's losses (compare.RecordLossRule)
    if (!sawRecord) {
      sawRecord = true;
      firstNs = timeNs;
      lastNs = timeNs;
    } else if (timeNs < lastNs - windowNs) {
      // perf script sorts records by time; one far behind cannot be placed in a closed window.
      health.increment(outOfOrderCounter);
      damage.behind(cpu, timeNs, lastNs, timeNs - firstNs < windowNs && lastNs - firstNs > 2 * windowNs);
      return null;
    }
    firstNs = Math.min(firstNs, timeNs);
    lastNs = Math.max(lastNs, timeNs);
    long window = Math.floorDiv(timeNs, windowNs);
    OpenBlock b = openByCpu.get(cpu);
    if (b == null) {
      b = new OpenBlock(cpu, window, new CpuState());
      openByCpu.put(cpu, b);
      complete.opened(window);
      return b;
    }
    if (window < b.window) {
      health.increment(outOfOrderCounter);
      damage.behind(cpu, timeNs, lastNs, false);
      return null;
    }
    if (window > b.window) {
      CpuState state = emit(b, false, 0);
      long maxCarry = Math.max(MAX_CARRY_WINDOWS, FAR_NS / windowNs);
      long carryEnd = window - b.window - 1 > maxCarry ? b.window + 1 + maxCarry : Long.MAX_VALUE;
      for (long w = b.window + 1; w < window && state.kind == CpuState.Kind.RUNNING; w++) {
        // A running thread carried over many windows without a record has surely stopped: it
        // ends as at the trace's end, so far the latest record (a real instant: see WindowThreads).
        boolean last = w + 1 == carryEnd;
        state = emit(new OpenBlock(cpu, w, state), last, last ? lastNs : 0);
        if (last) {
          break;
        }
      }
      complete.moved(b.window, window);
      b = new OpenBlock(cpu, window, state);
      openByCpu.put(cpu, b);
      complete.announce(lastNs, windowNs);
    }
    return b;
  }

  /**
   * The last block of a CPU ends its running thread half an interval after its last sample; when
   * that falls in a later window, empty tail blocks carry the thread there.
   */
  private void emitTail(OpenBlock b, long runEnd) {
    CpuState state = emit(b, true, runEnd);
    for (long w = b.window + 1; state.kind == CpuState.Kind.RUNNING; w++) {
      state = emit(new OpenBlock(b.cpu, w, state), true, runEnd);
    }
  }

  private CpuState emit(OpenBlock open, boolean tail, long runEnd) {
    EventBlock block = open.toBlock(runId, windowNs);
    health.add(TraceHealth.DUPLICATE_SAMPLES, open.duplicateSamples);
    health.add(TraceHealth.DUPLICATE_SWITCHES, open.duplicateSwitches);
    health.add(TraceHealth.DUPLICATE_WAKEUPS, open.duplicateWakeups);
    if (open.firstDuplicateNs != Long.MAX_VALUE) {
      damage.duplicate(open.cpu, open.firstDuplicateNs);
    }
    for (int i = 0; i < block.samples.count; i++) {
      if (block.samples.tid[i] == 0) {
        health.increment(TraceHealth.IDLE_SAMPLES);
      }
    }
    block.runStartNs = firstNs;
    block.runEndNs = tail ? runEnd : 0;
    block.cpuTail = tail;
    block.sampleIntervalNs = interval.forBlock(block.samples.count, info.periodIsNanoseconds);
    block.periodIsNanoseconds = info.periodIsNanoseconds;
    block.threadLane = lanes.byThread();
    threads.resolveLateThreads(block);
    CpuState next = CpuTimeline.replay(block, false);
    out.accept(block);
    return next;
  }

  /**
   * Routes a timed record past the far-jump gate. Returns true when the record is taken care of
   * (held back, or skipped as outside the run); false when it is to be added now.
   */
  private boolean outsideRun(long timeNs, int cpu, String recordCounter, String outsideCounter,
      Runnable add) {
    if (gate.farBehind(sawRecord, lastNs, timeNs)) {
      skipOutside(timeNs, cpu, recordCounter, outsideCounter);
      return true;
    }
    if (!gate.mustOffer(sawRecord, lastNs, timeNs)) {
      return false;
    }
    return gate.offer(lastNs, timeNs, new FarJumpGate.Held() {
      @Override
      public void accept() {
        add.run();
      }

      @Override
      public void reject() {
        skipOutside(timeNs, cpu, recordCounter, outsideCounter);
      }
    });
  }

  private void skipOutside(long timeNs, int cpu, String recordCounter, String outsideCounter) {
    health.increment(recordCounter);
    health.increment(outsideCounter);
    damage.outside(cpu, timeNs);
  }
}
