package dev.loadprof.load;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.Intervals;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.wall.WindowThreads;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Joins the samples of one (run, window) with the run intervals of every CPU in that window.
 *
 * <p>A sample's load is 1 (its own thread, which the sample proves was running) plus the number
 * of other CPUs running a thread of the same process at the sample's instant. Counting the own
 * CPU from the sample rather than from its interval keeps the load >= 1 even where the switch
 * chain was wrong. One sweep over interval edges and samples in time order gives both the sample
 * loads and, per process, the exact wall time spent at each load.
 */
public final class LoadJoiner {
  private LoadJoiner() {}

  /** Returns one accumulator per process that ran or was sampled in the window. */
  public static Map<Integer, ProcessAccumulator> join(Collection<EventBlock> blocks) {
    return join(blocks, SampleSelection.EVERY_SAMPLE);
  }

  /**
   * The same, with only the samples {@code selection} keeps in the stacks (profile, functions,
   * folded); every sample still counts in the loads and histograms.
   */
  public static Map<Integer, ProcessAccumulator> join(Collection<EventBlock> blocks,
      SampleSelection.Selector selection) {
    EventBlock[] cpus = blocks.toArray(new EventBlock[0]);
    // Deterministic order, whatever order the blocks arrived in.
    Arrays.sort(cpus, (a, b) -> Integer.compare(a.cpu, b.cpu));
    Map<Integer, ProcessAccumulator> byPid = new HashMap<>();
    Map<Integer, PidCount> counts = new HashMap<>();
    String runId = cpus.length == 0 ? "" : cpus[0].runId;

    long windowStart = cpus.length == 0 ? 0 : cpus[0].windowStartNs;

    // Interval edges of all CPUs, sorted by time; at the same instant ends before starts.
    int intervalCount = 0;
    for (EventBlock b : cpus) {
      intervalCount += b.intervals.count;
    }
    int[] edgeCpu = new int[intervalCount];
    int[] edgeInterval = new int[intervalCount];
    long[] edges = new long[2 * intervalCount];
    int g = 0;
    for (int c = 0; c < cpus.length; c++) {
      Intervals iv = cpus[c].intervals;
      for (int i = 0; i < iv.count; i++, g++) {
        edgeCpu[g] = c;
        edgeInterval[g] = i;
        edges[2 * g] = pack(iv.start[i] - windowStart, 1, g);
        edges[2 * g + 1] = pack(iv.end[i] - windowStart, 0, g);
        if (iv.pid[i] != TraceEventSink.UNKNOWN_ID) {
          accumulator(byPid, runId, iv.pid[i]).extendSpan(iv.start[i], iv.end[i]);
        }
      }
    }
    Arrays.sort(edges);

    // Samples of all CPUs, sorted by time.
    int sampleCount = 0;
    for (EventBlock b : cpus) {
      sampleCount += b.samples.count;
    }
    int[] sampleCpu = new int[sampleCount];
    int[] sampleIndex = new int[sampleCount];
    long[] samples = new long[sampleCount];
    int n = 0;
    for (int c = 0; c < cpus.length; c++) {
      for (int i = 0; i < cpus[c].samples.count; i++, n++) {
        sampleCpu[n] = c;
        sampleIndex[n] = i;
        samples[n] = pack(cpus[c].samples.time[i] - windowStart, 0, n);
      }
    }
    Arrays.sort(samples);

    // Each block's stacks as frames, resolved once per stack rather than once per sample.
    CallStack[][] stacksOf = new CallStack[cpus.length][];
    for (int c = 0; c < cpus.length; c++) {
      stacksOf[c] = new CallStack[cpus[c].stackTable.stacks.length];
    }
    int[] pidOnCpu = new int[cpus.length];
    Arrays.fill(pidOnCpu, TraceEventSink.UNKNOWN_ID);
    int edge = 0;
    for (int s = 0; s <= sampleCount; s++) {
      long t = s < sampleCount ? time(samples[s]) : Long.MAX_VALUE;
      // Apply every edge up to and including t: intervals are half-open [start, end).
      while (edge < edges.length && time(edges[edge]) <= t) {
        long x = edges[edge++];
        int gi = payload(x);
        int cpu = edgeCpu[gi];
        int pid = cpus[cpu].intervals.pid[edgeInterval[gi]];
        if (pid == TraceEventSink.UNKNOWN_ID) {
          continue;
        }
        PidCount pc = counts.computeIfAbsent(pid, p -> new PidCount());
        long now = time(x);
        if (pc.running > 0) {
          ProcessAccumulator acc = accumulator(byPid, runId, pid);
          acc.addTimeAtLoad(pc.running, now - pc.since);
          acc.timeline.addLoad(windowStart + pc.since, windowStart + now, pc.running);
        }
        pc.since = now;
        if (isStart(x)) {
          pc.running++;
          pidOnCpu[cpu] = pid;
        } else {
          pc.running--;
          pidOnCpu[cpu] = TraceEventSink.UNKNOWN_ID;
        }
      }
      if (s < sampleCount) {
        int si = payload(samples[s]);
        int c = sampleCpu[si];
        addSample(cpus[c], sampleIndex[si], c, stacksOf[c], pidOnCpu, counts, byPid, runId,
            selection);
      }
    }
    WindowThreads.collect(cpus, pid -> accumulator(byPid, runId, pid).threads);
    return byPid;
  }

  private static void addSample(EventBlock b, int i, int cpuIndex, CallStack[] stacks,
      int[] pidOnCpu, Map<Integer, PidCount> counts, Map<Integer, ProcessAccumulator> byPid,
      String runId, SampleSelection.Selector selection) {
    int pid = b.samples.pid[i];
    if (pid == 0) {
      return; // the idle task: evidence for the timeline, counted as idle_samples when parsed
    }
    if (pid == TraceEventSink.UNKNOWN_ID) {
      // No process to credit; counted so that the run's records still add up.
      accumulator(byPid, runId, pid).addHealth(TraceHealth.SAMPLES_UNKNOWN_PROCESS, 1);
      return;
    }
    PidCount pc = counts.get(pid);
    int running = pc == null ? 0 : pc.running;
    int othersRunning = running - (pidOnCpu[cpuIndex] == pid ? 1 : 0);
    int load = 1 + othersRunning;
    ProcessAccumulator acc = accumulator(byPid, runId, pid);
    int stackId = b.samples.stack[i];
    CallStack stack = stacks[stackId];
    if (stack == null) {
      stack = b.stackTable.callStack(stackId);
      stacks[stackId] = stack;
    }
    int tid = b.samples.tid[i];
    acc.addSample(tid, load, b.sampleCpuNs(i), stack,
        selection.selects(tid, b.cpu, b.samples.cpu[i], b.samples.time[i]));
    acc.threads.addSample(tid, b.samples.time[i], stack);
    Frame[] frames = stack.frames();
    if (frames.length > 0) {
      acc.timeline.addSample(b.samples.time[i], frames[0].symbol(), b.sampleCpuNs(i));
    }
    if (b.sampleFlags != null && b.sampleFlags[i] == EventBlock.FLAG_CONTRADICTED) {
      acc.addHealth(TraceHealth.SAMPLES_CONTRADICTED, 1);
    }
  }

  private static ProcessAccumulator accumulator(Map<Integer, ProcessAccumulator> byPid,
      String runId, int pid) {
    return byPid.computeIfAbsent(pid, p -> new ProcessAccumulator(runId, p));
  }

  private static final class PidCount {
    int running;
    long since;
  }

  // Edges and samples are sorted as packed longs: time since the window start (39 bits, so a
  // window may span up to ~9 minutes), then one bit that puts interval ends before starts at the
  // same instant, then an index (23 bits: 8M intervals or samples per window).
  private static final int INDEX_BITS = 23;
  private static final long MAX_RELATIVE_TIME = 1L << 39;

  private static long pack(long relativeTime, int startBit, int index) {
    if (relativeTime < 0 || relativeTime >= MAX_RELATIVE_TIME || index >= (1 << INDEX_BITS)) {
      throw new IllegalArgumentException("window too large to join (" + relativeTime
          + " ns, " + index + " events); use a smaller --window");
    }
    return (relativeTime << (INDEX_BITS + 1)) | ((long) startBit << INDEX_BITS) | index;
  }

  private static long time(long packed) {
    return packed >>> (INDEX_BITS + 1);
  }

  private static boolean isStart(long packed) {
    return ((packed >>> INDEX_BITS) & 1) == 1;
  }

  private static int payload(long packed) {
    return (int) (packed & ((1 << INDEX_BITS) - 1));
  }
}
