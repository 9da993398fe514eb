package dev.loadprof.load;

import dev.loadprof.model.TraceEventSink;
import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.Intervals;
import dev.loadprof.model.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A tiny trace written event by event, fed through BlockBuilder and CpuTimeline exactly as the
 * pipeline does, with helpers to read back each CPU's run intervals. Times are in microseconds
 * to keep the cases readable; the sample interval is 250 us (perf's default 4000 Hz).
 */
final class TimelineCase {
  static final long US = 1_000;
  static final long PERIOD = 250 * US;
  static final Frame[] STACK = {new Frame("work", "/bin/app")};

  final BlockBuilder builder;
  final List<EventBlock> blocks = new ArrayList<>();
  RunInfo run;

  TimelineCase(long windowUs) {
    builder = new BlockBuilder("run", "case.txt", windowUs * US, null, b -> {
      CpuTimeline.replay(b, true);
      blocks.add(b);
    });
  }

  TimelineCase() {
    this(1_000_000);
  }

  TimelineCase sample(long us, int cpu, int pid, int tid) {
    builder.sample(us * US, cpu, pid, tid, "app", "cpu-clock", PERIOD, STACK);
    return this;
  }

  /** Samples tid on cpu every period from fromUs (inclusive) to toUs (exclusive). */
  TimelineCase samples(long fromUs, long toUs, int cpu, int pid, int tid) {
    for (long t = fromUs; t < toUs; t += PERIOD / US) {
      sample(t, cpu, pid, tid);
    }
    return this;
  }

  TimelineCase sw(long us, int cpu, int prevPid, int prevTid, int nextTid) {
    builder.schedSwitch(us * US, cpu, 1, prevPid, prevTid, prevTid == 0 ? "swapper" : "app",
        "S", nextTid, nextTid == 0 ? "swapper" : "app", new dev.loadprof.model.Frame[0]);
    return this;
  }

  TimelineCase wakeup(long us, int cpu, int tid, int targetCpu) {
    builder.schedWakeup(us * US, cpu, 0, 0, tid, "app", targetCpu);
    return this;
  }

  TimelineCase thread(int pid, int tid) {
    builder.comm(0, TraceEventSink.UNKNOWN_ID, pid, tid, "app", false);
    return this;
  }

  TimelineCase finish() {
    run = builder.finish();
    return this;
  }

  /** The run intervals of one CPU, merged across windows, as "tid@startUs-endUs" strings. */
  List<String> intervals(int cpu) {
    List<long[]> merged = new ArrayList<>();
    blocks.stream().filter(b -> b.cpu == cpu)
        .sorted((a, b) -> Long.compare(a.window, b.window))
        .forEach(b -> {
          Intervals iv = b.intervals;
          for (int i = 0; i < iv.count; i++) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last[2] == iv.tid[i] && last[1] == iv.start[i]) {
              last[1] = iv.end[i];
            } else {
              merged.add(new long[] {iv.start[i], iv.end[i], iv.tid[i]});
            }
          }
        });
    List<String> out = new ArrayList<>();
    for (long[] m : merged) {
      out.add(m[2] + "@" + fmt(m[0]) + "-" + fmt(m[1]));
    }
    return out;
  }

  /** Per pid: the accumulated figures of the whole run, joined window by window. */
  Map<Integer, ProcessAccumulator> join() {
    Map<Long, List<EventBlock>> byWindow = new TreeMap<>();
    for (EventBlock b : blocks) {
      byWindow.computeIfAbsent(b.window, w -> new ArrayList<>()).add(b);
    }
    Map<Integer, ProcessAccumulator> out = new TreeMap<>();
    for (List<EventBlock> w : byWindow.values()) {
      LoadJoiner.join(w).forEach((pid, acc) -> out.merge(pid, acc, ProcessAccumulator::mergeFrom));
    }
    return out;
  }

  long health(String counter) {
    long blockSum = blocks.stream().mapToLong(b -> b.health.getOrDefault(counter, 0L)).sum();
    return blockSum + run.health.get(counter);
  }

  private static String fmt(long ns) {
    return ns % US == 0 ? Long.toString(ns / US) : String.format("%.3f", ns / (double) US);
  }
}
