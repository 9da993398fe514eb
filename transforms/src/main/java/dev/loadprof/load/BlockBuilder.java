package dev.loadprof.load;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Cuts the event stream of one run into blocks of (CPU, time window) and hands each block on as
 * soon as its window is over, so memory is bounded by one window per CPU, not by the trace.
 *
 * <p>It also keeps what only a sequential pass can know: which process each thread belongs to
 * (from PERF_RECORD_COMM/FORK and record headers), which sampling event is used, and what each
 * CPU was doing when a window starts (the carry-in, from replaying the previous block).
 *
 * <p>A block belongs to one lane of the run. With sched_switch records a lane is a CPU: its switch
 * chain says who ran on it. With per-thread context-switch records (PERF_RECORD_SWITCH, from a
 * per-process recording without root) a lane is a thread: its IN and OUT records say when it ran,
 * whatever CPU that was. Either way the lanes running a process at an instant are that process's
 * threads on a CPU, so the same interval repair and load join apply. The lane kind is known at the
 * first switch record of either kind (or at a sample without a CPU); events before that wait.
 */
public final class BlockBuilder implements TraceEventSink {
  /** Samples of this many threads/gaps are enough to estimate the sample interval. */
  private static final int INTERVAL_ESTIMATE_SIZE = 1001;
  /** Used only when a non-time event's samples never come close enough to measure a gap. */
  static final long FALLBACK_SAMPLE_INTERVAL_NS = 1_000_000;

  private final String runId;
  private final String sourceName;
  private final long windowNs;
  private final String wantedEvent;
  private final Consumer<EventBlock> out;
  private final RunInfo info = new RunInfo();
  private final TraceHealth health = info.health;

  private final Map<Integer, Integer> pidOfTid = new HashMap<>();
  /** Plain layout only: processes are named groups of threads; comm -> representative pid. */
  private final Map<String, Integer> pidOfComm = new HashMap<>();
  private final Map<Integer, String> commOfTid = new HashMap<>();
  private final Map<Integer, OpenBlock> openByCpu = new TreeMap<>();

  /** How blocks are keyed: not known yet, by CPU (sched_switch), by thread (context switches). */
  private enum Lanes { UNDECIDED, CPUS, THREADS }

  /** Events wait at most this long for the first switch record before CPU lanes are assumed. */
  private static final int MAX_PENDING_EVENTS = 1 << 20;

  private Lanes lanes = Lanes.UNDECIDED;
  private final List<Runnable> pending = new ArrayList<>();
  /** Thread lanes: the CPUs samples name (for RunInfo.cpuCount), and whose last record was IN. */
  private final java.util.Set<Integer> sampleCpus = new java.util.TreeSet<>();
  private final Map<Integer, Boolean> lastSwitchWasIn = new HashMap<>();

  private boolean sawRecord;
  private boolean plainLayout;
  private long firstNs = Long.MAX_VALUE;
  private long lastNs = Long.MIN_VALUE;
  private final long[] intervalCandidates = new long[INTERVAL_ESTIMATE_SIZE];
  private int intervalCandidateCount;
  private long sampleIntervalNs; // 0 until frozen at the first block close
  private final Map<Long, Long> lastSampleOfCpuTid = new HashMap<>();

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
  }

  // ---------------------------------------------------------------- TraceEventSink

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    health.increment(TraceHealth.SAMPLE_RECORDS);
    if (info.samplingEvent.isEmpty()) {
      if (wantedEvent != null && !wantedEvent.equals(event)) {
        health.increment(TraceHealth.SAMPLES_OTHER_EVENT);
        return;
      }
      info.samplingEvent = event;
      info.periodIsNanoseconds = isTimeEvent(event);
    } else if (!info.samplingEvent.equals(event)) {
      health.increment(TraceHealth.SAMPLES_OTHER_EVENT);
      return;
    }
    detectLayout(pid);
    int resolved = learnThread(pid, tid, comm);
    if (cpu == UNKNOWN_ID) {
      decideLanes(Lanes.THREADS); // only a thread's own lane can hold a sample without a CPU
    } else {
      sampleCpus.add(cpu);
    }
    whenLanesKnown(() -> placeSample(timeNs, cpu, resolved, tid, period, stack));
  }

  private void placeSample(long timeNs, int cpu, int pid, int tid, long period, Frame[] stack) {
    OpenBlock b = blockFor(lanes == Lanes.THREADS ? tid : cpu, timeNs,
        TraceHealth.OUT_OF_ORDER_SAMPLES);
    if (b == null) {
      return;
    }
    if (tid == 0) {
      health.increment(TraceHealth.IDLE_SAMPLES);
    }
    noteSampleInterval(cpu, tid, timeNs, period);
    b.addSample(timeNs, tid, pid, period, stack);
  }

  /**
   * A per-thread switch record: on the thread's own lane, IN is "idle ==> tid" and OUT is "tid
   * ==> idle", so a missing IN or OUT is a chain break repaired like any other.
   */
  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in) {
    if (lanes == Lanes.CPUS) {
      ignored(in ? "PERF_RECORD_SWITCH IN (sched_switch gives the loads)" : "PERF_RECORD_SWITCH OUT"
          + " (sched_switch gives the loads)");
      return;
    }
    health.increment(TraceHealth.SWITCH_RECORDS);
    decideLanes(Lanes.THREADS);
    if (tid == 0 || tid == UNKNOWN_ID) {
      health.increment(TraceHealth.IDLE_SWITCH_RECORDS); // the idle task of a CPU-wide record
      return;
    }
    detectLayout(pid);
    int resolved = learnThread(pid, tid, comm);
    OpenBlock b = blockFor(tid, timeNs, TraceHealth.OUT_OF_ORDER_SWITCHES);
    if (b == null) {
      return;
    }
    lastSwitchWasIn.put(tid, in);
    if (in) {
      b.addSwitch(timeNs, 0, 0, tid, resolved);
    } else {
      b.addSwitch(timeNs, tid, resolved, 0, 0);
    }
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm) {
    if (lanes == Lanes.THREADS) {
      ignored("sched:sched_switch (context-switch records give the loads)");
      return;
    }
    decideLanes(Lanes.CPUS);
    health.increment(TraceHealth.SWITCH_RECORDS);
    if (period > 1) {
      health.increment(TraceHealth.FREQ_SAMPLED_SWITCH_RECORDS);
      health.add(TraceHealth.SWITCHES_LOST_TO_SAMPLING, period - 1);
    }
    if (prevState != null && prevState.startsWith("X")) {
      health.increment(TraceHealth.EXITED_THREAD_SWITCHES);
    }
    detectLayout(prevPid);
    int resolvedPrev = learnThread(prevPid, prevTid, prevComm);
    int resolvedNext = pidOf(nextTid, nextComm);
    OpenBlock b = blockFor(cpu, timeNs, TraceHealth.OUT_OF_ORDER_SWITCHES);
    if (b != null) {
      b.addSwitch(timeNs, prevTid, resolvedPrev, nextTid, resolvedNext);
    }
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int tid, String comm, int targetCpu) {
    health.increment(TraceHealth.WAKEUP_RECORDS);
    pidOf(tid, comm);
    whenLanesKnown(() -> {
      OpenBlock b = blockFor(lanes == Lanes.THREADS ? tid : targetCpu, timeNs,
          TraceHealth.OUT_OF_ORDER_WAKEUPS);
      if (b != null) {
        b.addWakeup(timeNs, tid);
      }
    });
  }

  private void whenLanesKnown(Runnable place) {
    if (lanes != Lanes.UNDECIDED) {
      place.run();
      return;
    }
    pending.add(place);
    if (pending.size() >= MAX_PENDING_EVENTS) {
      decideLanes(Lanes.CPUS);
    }
  }

  /** Fixes the lane kind once and places the events that waited for it, in their order. */
  private void decideLanes(Lanes kind) {
    if (lanes != Lanes.UNDECIDED) {
      return;
    }
    lanes = kind;
    for (Runnable place : pending) {
      place.run();
    }
    pending.clear();
  }

  @Override
  public void comm(long timeNs, int pid, int tid, String comm, boolean exec) {
    health.increment(TraceHealth.TASK_RECORDS);
    pidOfTid.put(tid, pid);
    if (pid == tid || !info.processNames.containsKey(pid)) {
      info.processNames.put(pid, comm);
    }
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    health.increment(TraceHealth.TASK_RECORDS);
    pidOfTid.put(tid, pid);
    if (!info.processNames.containsKey(pid)) {
      String parentName = info.processNames.get(parentPid);
      if (parentName != null) {
        info.processNames.put(pid, parentName);
      }
    }
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    // The thread's tid stays mapped: "-1" switch records of the dead thread follow its exit.
    health.increment(TraceHealth.TASK_RECORDS);
  }

  @Override
  public void lost(long timeNs, long count) {
    health.add(TraceHealth.LOST_EVENTS, count);
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

  /** Flushes the last blocks of every CPU and returns what is known of the run. */
  public RunInfo finish() {
    decideLanes(Lanes.CPUS);
    freezeSampleInterval();
    long runEnd = sawRecord ? lastNs : 0;
    info.cpuCount = lanes == Lanes.THREADS ? sampleCpus.size() : openByCpu.size();
    if (lanes == Lanes.THREADS) {
      health.add(TraceHealth.THREADS_IN_AT_END,
          lastSwitchWasIn.values().stream().filter(in -> in).count());
    }
    for (OpenBlock b : openByCpu.values()) {
      emitTail(b, runEnd);
    }
    openByCpu.clear();
    info.startNs = sawRecord ? firstNs : 0;
    info.endNs = runEnd;
    info.sampleIntervalNs = sampleIntervalNs;
    info.layout = plainLayout ? "plain" : "fields";
    info.pidSource = plainLayout ? "comm" : "trace";
    addWarnings();
    return info;
  }

  private void addWarnings() {
    if (lanes == Lanes.THREADS) {
      info.warnings.add(sourceName + ": loads come from per-thread context-switch records (a"
          + " per-process recording): only the recorded program's threads are seen, and a :u"
          + " sampling event shows no kernel frames. Record system-wide as root for both.");
    }
    long lost = health.get(TraceHealth.SWITCHES_LOST_TO_SAMPLING);
    if (lost > 0) {
      info.warnings.add(String.format(
          "%s: sched_switch was frequency-sampled (perf record -F or -c): %d switch records stand"
              + " for %d lost switches; loads are unreliable. Record again without -F/-c (use"
              + " -e cpu-clock/freq=N/ to change the sample rate).",
          sourceName, health.get(TraceHealth.FREQ_SAMPLED_SWITCH_RECORDS), lost));
    }
    if (plainLayout) {
      info.warnings.add(sourceName + ": no pids in this trace (plain perf script): threads are"
          + " grouped into processes by name. For exact processes run: perf script -F"
          + " comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns --show-task-events");
    }
    long unknown = health.get(TraceHealth.UNKNOWN_PID_SWITCHES);
    if (unknown >= 10 && unknown * 100 > health.get(TraceHealth.SWITCH_RECORDS)) {
      info.warnings.add(sourceName + ": " + unknown + " switch records name a thread whose"
          + " process is unknown, so loads are undercounted. Run perf script with"
          + " --show-task-events (and -F comm,pid,tid,...) so that every thread's process is known.");
    }
    if (health.get(TraceHealth.LOST_EVENTS) > 0) {
      info.warnings.add(sourceName + ": perf lost " + health.get(TraceHealth.LOST_EVENTS)
          + " events; loads near those instants may be off.");
    }
    if (health.get(TraceHealth.MALFORMED_LINES) > 0) {
      info.warnings.add(sourceName + ": " + health.get(TraceHealth.MALFORMED_LINES)
          + " malformed lines were skipped, first: " + health.malformedExamples().get(0));
    }
  }

  /**
   * Why this run cannot be analyzed, as a one-line message that names the perf command to use,
   * or null when it can.
   */
  public static String unusableReason(RunInfo info) {
    String record = "perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o X.data --"
        + " CMD; perf script -i X.data -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso"
        + " --ns --show-task-events";
    if (info.health.get(TraceHealth.SWITCH_RECORDS) == 0
        && info.health.get(TraceHealth.SAMPLE_RECORDS) == 0) {
      return info.source + ": no perf samples or sched_switch records found ("
          + info.health.get(TraceHealth.MALFORMED_LINES) + " unreadable lines). Is this perf"
          + " script output? Make one with: " + record;
    }
    if (info.health.get(TraceHealth.SWITCH_RECORDS) == 0) {
      return info.source + ": no sched:sched_switch records, so loads cannot be known. Record"
          + " with: " + record;
    }
    if (info.samplingEvent.isEmpty()) {
      return info.source + ": no samples of a sampling event (cpu-clock, cycles, ...). Record"
          + " with: " + record;
    }
    return null;
  }

  // ---------------------------------------------------------------- threads

  /**
   * The first sample or switch tells the layout: plain perf script has no pids and no task
   * records; the recommended layout has "pid/tid" headers.
   */
  private void detectLayout(int headerPid) {
    if (!sawRecord && health.get(TraceHealth.TASK_RECORDS) == 0 && headerPid == UNKNOWN_ID) {
      plainLayout = true;
    }
  }

  private int learnThread(int pid, int tid, String comm) {
    if (tid == 0) {
      return 0;
    }
    if (pid != UNKNOWN_ID) {
      pidOfTid.put(tid, pid);
      if (!info.processNames.containsKey(pid) && comm != null && !comm.startsWith(":-1")) {
        info.processNames.put(pid, comm);
      }
      return pid;
    }
    return pidOf(tid, comm);
  }

  private int pidOf(int tid, String comm) {
    if (tid == 0) {
      return 0;
    }
    if (plainLayout && comm != null) {
      return pidOfNamedThread(tid, comm);
    }
    Integer pid = pidOfTid.get(tid);
    return pid != null ? pid : UNKNOWN_ID;
  }

  /**
   * Without pids, a process is the group of threads that share a name. A thread that changes
   * name (exec, prctl) moves to the group of its new name; the first thread of a group names it.
   */
  private int pidOfNamedThread(int tid, String comm) {
    if (comm.equals(commOfTid.get(tid))) {
      return pidOfTid.get(tid);
    }
    commOfTid.put(tid, comm);
    int group = pidOfComm.computeIfAbsent(comm, c -> tid);
    pidOfTid.put(tid, group);
    if (group == tid) {
      info.processNames.put(group, comm);
    }
    return group;
  }

  // ---------------------------------------------------------------- blocks

  private OpenBlock blockFor(int cpu, long timeNs, String outOfOrderCounter) {
    if (!sawRecord) {
      sawRecord = true;
      firstNs = timeNs;
      lastNs = timeNs;
    } else if (timeNs < lastNs - windowNs) {
      // perf script sorts records by time; one far behind cannot be placed in a closed window.
      health.increment(outOfOrderCounter);
      return null;
    }
    firstNs = Math.min(firstNs, timeNs);
    lastNs = Math.max(lastNs, timeNs);
    long window = Math.floorDiv(timeNs, windowNs);
    OpenBlock b = openByCpu.get(cpu);
    if (b == null) {
      b = new OpenBlock(cpu, window, new CpuState());
      openByCpu.put(cpu, b);
      return b;
    }
    if (window < b.window) {
      health.increment(outOfOrderCounter);
      return null;
    }
    if (window > b.window) {
      CpuState state = emit(b, false, 0);
      for (long w = b.window + 1; w < window && state.kind == CpuState.Kind.RUNNING; w++) {
        // The running thread carries over a window in which this CPU recorded nothing.
        state = emit(new OpenBlock(cpu, w, state), false, 0);
      }
      b = new OpenBlock(cpu, window, state);
      openByCpu.put(cpu, b);
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
    freezeSampleInterval();
    EventBlock block = open.toBlock(tail, runEnd);
    CpuState next = CpuTimeline.replay(block, false);
    out.accept(block);
    return next;
  }

  // ---------------------------------------------------------------- sample interval

  /** cpu-clock and task-clock count nanoseconds (with or without modifiers such as ":u"). */
  static boolean isTimeEvent(String event) {
    String base = event.split(":", 2)[0];
    return base.equals("cpu-clock") || base.equals("task-clock");
  }

  private void noteSampleInterval(int cpu, int tid, long timeNs, long period) {
    if (sampleIntervalNs != 0 || intervalCandidateCount == INTERVAL_ESTIMATE_SIZE) {
      return;
    }
    if (info.periodIsNanoseconds) {
      if (period > 0) {
        intervalCandidates[intervalCandidateCount++] = period;
      }
      return;
    }
    long key = ((long) cpu << 32) | (tid & 0xffffffffL);
    Long previous = lastSampleOfCpuTid.put(key, timeNs);
    long gap = previous == null ? 0 : timeNs - previous;
    if (gap > 0 && gap < 100_000_000L) {
      intervalCandidates[intervalCandidateCount++] = gap;
    }
  }

  /** Fixes the sample interval once, so that every block of the run uses the same one. */
  private void freezeSampleInterval() {
    if (sampleIntervalNs != 0) {
      return;
    }
    if (intervalCandidateCount == 0) {
      sampleIntervalNs = FALLBACK_SAMPLE_INTERVAL_NS;
      if (!info.periodIsNanoseconds) {
        info.warnings.add(sourceName + ": could not measure the time between samples of "
            + info.samplingEvent + "; assuming " + FALLBACK_SAMPLE_INTERVAL_NS + " ns.");
      }
    } else {
      long[] sorted = Arrays.copyOf(intervalCandidates, intervalCandidateCount);
      Arrays.sort(sorted);
      sampleIntervalNs = Math.max(1, sorted[sorted.length / 2]);
    }
    lastSampleOfCpuTid.clear();
  }

  // ---------------------------------------------------------------- one block being filled

  private final class OpenBlock {
    final int cpu;
    final long window;
    final CpuState carryIn;
    int samples;
    long[] sampleTime = new long[64];
    int[] sampleTid = new int[64];
    int[] samplePid = new int[64];
    long[] samplePeriod = new long[64];
    int[] sampleStack = new int[64];
    int switches;
    long[] switchTime = new long[16];
    int[] prevTid = new int[16];
    int[] prevPid = new int[16];
    int[] nextTid = new int[16];
    int[] nextPid = new int[16];
    int wakeups;
    long[] wakeTime = new long[0];
    int[] wakeTid = new int[0];
    final Map<Frame, Integer> frameIds = new HashMap<>();
    final List<Frame> frames = new ArrayList<>();
    final Map<StackKey, Integer> stackIds = new HashMap<>();
    final List<int[]> stacks = new ArrayList<>();

    OpenBlock(int cpu, long window, CpuState carryIn) {
      this.cpu = cpu;
      this.window = window;
      this.carryIn = carryIn;
    }

    void addSample(long t, int tid, int pid, long period, Frame[] stack) {
      if (samples == sampleTime.length) {
        int n = samples * 2;
        sampleTime = Arrays.copyOf(sampleTime, n);
        sampleTid = Arrays.copyOf(sampleTid, n);
        samplePid = Arrays.copyOf(samplePid, n);
        samplePeriod = Arrays.copyOf(samplePeriod, n);
        sampleStack = Arrays.copyOf(sampleStack, n);
      }
      sampleTime[samples] = t;
      sampleTid[samples] = tid;
      samplePid[samples] = pid;
      samplePeriod[samples] = period;
      sampleStack[samples] = stackId(stack);
      samples++;
    }

    void addSwitch(long t, int pTid, int pPid, int nTid, int nPid) {
      if (switches == switchTime.length) {
        int n = switches * 2;
        switchTime = Arrays.copyOf(switchTime, n);
        prevTid = Arrays.copyOf(prevTid, n);
        prevPid = Arrays.copyOf(prevPid, n);
        nextTid = Arrays.copyOf(nextTid, n);
        nextPid = Arrays.copyOf(nextPid, n);
      }
      switchTime[switches] = t;
      prevTid[switches] = pTid;
      prevPid[switches] = pPid;
      nextTid[switches] = nTid;
      nextPid[switches] = nPid;
      switches++;
    }

    void addWakeup(long t, int tid) {
      if (wakeups == wakeTime.length) {
        int n = Math.max(8, wakeups * 2);
        wakeTime = Arrays.copyOf(wakeTime, n);
        wakeTid = Arrays.copyOf(wakeTid, n);
      }
      wakeTime[wakeups] = t;
      wakeTid[wakeups] = tid;
      wakeups++;
    }

    private int stackId(Frame[] stack) {
      StackKey key = new StackKey(stack);
      Integer id = stackIds.get(key);
      if (id != null) {
        return id;
      }
      int[] ids = new int[stack.length];
      for (int i = 0; i < stack.length; i++) {
        Integer f = frameIds.get(stack[i]);
        if (f == null) {
          f = frames.size();
          frames.add(stack[i]);
          frameIds.put(stack[i], f);
        }
        ids[i] = f;
      }
      stacks.add(ids);
      stackIds.put(key, stacks.size() - 1);
      return stacks.size() - 1;
    }

    EventBlock toBlock(boolean tail, long runEnd) {
      EventBlock b = new EventBlock();
      b.runId = runId;
      b.cpu = cpu;
      b.window = window;
      b.windowStartNs = window * windowNs;
      b.windowEndNs = (window + 1) * windowNs;
      b.runStartNs = firstNs;
      b.runEndNs = tail ? runEnd : 0;
      b.cpuTail = tail;
      b.sampleIntervalNs = sampleIntervalNs;
      b.periodIsNanoseconds = info.periodIsNanoseconds;
      b.carryIn = carryIn.copy();
      b.sampleCount = samples;
      b.sampleTime = Arrays.copyOf(sampleTime, samples);
      b.sampleTid = Arrays.copyOf(sampleTid, samples);
      b.samplePid = Arrays.copyOf(samplePid, samples);
      b.samplePeriod = Arrays.copyOf(samplePeriod, samples);
      b.sampleStack = Arrays.copyOf(sampleStack, samples);
      b.switchCount = switches;
      b.switchTime = Arrays.copyOf(switchTime, switches);
      b.switchPrevTid = Arrays.copyOf(prevTid, switches);
      b.switchPrevPid = Arrays.copyOf(prevPid, switches);
      b.switchNextTid = Arrays.copyOf(nextTid, switches);
      b.switchNextPid = Arrays.copyOf(nextPid, switches);
      resolveLateThreads(b);
      b.wakeupCount = wakeups;
      b.wakeupTime = Arrays.copyOf(wakeTime, wakeups);
      b.wakeupTid = Arrays.copyOf(wakeTid, wakeups);
      b.frames = frames.toArray(new Frame[0]);
      b.stacks = stacks.toArray(new int[0][]);
      return b;
    }
  }

  /**
   * A thread can be switched in before the record that names its process (perf-exec, say, runs
   * before its PERF_RECORD_COMM). By the end of the window its process is usually known.
   */
  private void resolveLateThreads(EventBlock b) {
    for (int i = 0; i < b.switchCount; i++) {
      if (b.switchPrevPid[i] == UNKNOWN_ID) {
        b.switchPrevPid[i] = pidOfTid.getOrDefault(b.switchPrevTid[i], UNKNOWN_ID);
      }
      if (b.switchNextPid[i] == UNKNOWN_ID) {
        b.switchNextPid[i] = pidOfTid.getOrDefault(b.switchNextTid[i], UNKNOWN_ID);
      }
      if (b.switchPrevPid[i] == UNKNOWN_ID || b.switchNextPid[i] == UNKNOWN_ID) {
        health.increment(TraceHealth.UNKNOWN_PID_SWITCHES);
      }
    }
    if (b.carryIn.kind == CpuState.Kind.RUNNING && b.carryIn.pid == UNKNOWN_ID) {
      b.carryIn.pid = pidOfTid.getOrDefault(b.carryIn.tid, UNKNOWN_ID);
    }
  }

  /** A stack as a hash key: equal frames in the same order. */
  private record StackKey(Frame[] frames) {
    @Override
    public boolean equals(Object o) {
      return o instanceof StackKey k && Arrays.equals(frames, k.frames);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(frames);
    }
  }
}
