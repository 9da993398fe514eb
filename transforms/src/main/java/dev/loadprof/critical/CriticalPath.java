package dev.loadprof.critical;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The critical path of one process: the chain of its threads' running, runnable and blocked
 * intervals, linked through wake-ups, that ends at the end of its span and whose length is the
 * span; the functions and waits on it, each thread's share of it, and what-if predictions (the
 * span if a function's on-CPU time were shorter). Immutable once made.
 */
public final class CriticalPath implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What the model assumes, for every output that prints a prediction. */
  public static final String MODEL_LIMITS = "first order: the same schedule, the same wake-up"
      + " order and no new contention; a function made faster shortens only its own on-CPU"
      + " time on the execution graph, and the dependencies (wake-ups, thread starts) are kept";

  /** What a thread on the path did over a segment. */
  public enum Kind { RUNNING, RUNNABLE_OWN, RUNNABLE_OTHER, BLOCKED }

  /**
   * One piece of the path, on one thread. reason: for BLOCKED how the wait ended ("timer",
   * "io", "process NAME", "unknown", ...); for RUNNABLE_OTHER the process that held the CPU
   * ("process NAME", or "" when none can be named); else "".
   */
  public record PathSegment(int tid, long startNs, long endNs, Kind kind, String reason)
      implements Serializable {
    public long ns() {
      return endNs - startNs;
    }
  }

  /**
   * A function's on-CPU time on the path (inclusive, once per sample), its share of the path,
   * and its self time (the samples it is the leaf of).
   */
  public record FunctionOnPath(String function, long ns, double share, long selfNs)
      implements Serializable {}

  /** A thread's time on the path. */
  public record ThreadShare(int tid, String name, long ns) implements Serializable {}

  /**
   * The predicted span if the function's on-CPU time were fasterPercent % shorter; changeNs is
   * predicted minus the span (<= 0: a gain).
   */
  public record WhatIf(String function, int fasterPercent, long predictedWallNs, long changeNs)
      implements Serializable {
    /** The change as a percentage of the span it changes (negative: faster). */
    public double changePercent(long spanNs) {
      return spanNs == 0 ? 0 : 100.0 * changeNs / spanNs;
    }
  }

  /** A stack on the path (leaf first, as frames are) and the ns it holds. */
  public record StackOnPath(int tid, CallStack stack, long ns)
      implements Serializable {}

  /**
   * A wait on the path: the thread, RUNNABLE_* or BLOCKED, its reason (as in {@link
   * PathSegment}), where the thread waited (its switch-out stack, leaf first; empty when not
   * known), and the ns.
   */
  public record WaitOnPath(int tid, Kind kind, String reason, CallStack stack, long ns)
      implements Serializable {}

  public final long spanStartNs;
  public final long spanEndNs;
  private final List<PathSegment> segments;
  private final List<FunctionOnPath> topFunctions;
  private final List<ThreadShare> threads;
  private final Map<String, Long> blockedByReason;
  private final long onCpuNs;
  private final long runnableOwnNs;
  private final long runnableOtherNs;
  private final List<WhatIf> whatIfs;
  private final Map<String, Long> folded;
  private final List<StackOnPath> stacks;
  private final List<WaitOnPath> waits;
  private final List<String> notes;

  /**
   * @param folded the critical folded stacks (a folded line, root first, to its ns on the path)
   * @param stacks the on-CPU stacks on the path per thread, with their frames (for pprof)
   * @param waits the waits on the path by kind, reason and stack
   * @param notes what may be off (wake-ups not followed and why), one line each
   */
  public CriticalPath(long spanStartNs, long spanEndNs, List<PathSegment> segments,
      List<FunctionOnPath> topFunctions, List<ThreadShare> threads,
      Map<String, Long> blockedByReason, long onCpuNs, long runnableOwnNs,
      long runnableOtherNs, List<WhatIf> whatIfs, Map<String, Long> folded,
      List<StackOnPath> stacks, List<WaitOnPath> waits, List<String> notes) {
    this.spanStartNs = spanStartNs;
    this.spanEndNs = spanEndNs;
    this.segments = List.copyOf(segments);
    this.topFunctions = List.copyOf(topFunctions);
    this.threads = List.copyOf(threads);
    this.blockedByReason = Collections.unmodifiableMap(new LinkedHashMap<>(blockedByReason));
    this.onCpuNs = onCpuNs;
    this.runnableOwnNs = runnableOwnNs;
    this.runnableOtherNs = runnableOtherNs;
    this.whatIfs = List.copyOf(whatIfs);
    this.folded = Collections.unmodifiableMap(new TreeMap<>(folded));
    this.stacks = List.copyOf(stacks);
    this.waits = List.copyOf(waits);
    this.notes = List.copyOf(notes);
  }

  /**
   * The path reduced to its totals: its length (one segment), its on-CPU time per leaf frame
   * (one stack of that frame each) and its waits per kind and reason (no stack), its on-CPU and
   * runnable totals; no segments, threads, functions table, what-ifs or folded stacks. What
   * nightly's history takes of a past run's path (its length and its time per function), at a
   * fraction of the size: a nightly reads thousands of runs' stored figures back.
   */
  public CriticalPath totalsOnly() {
    // By the leaf's function; null for stacks without a frame, which are not a function's.
    Map<String, StackOnPath> byLeaf = new LinkedHashMap<>();
    for (StackOnPath s : stacks) {
      Frame[] frames = s.stack().frames();
      Frame[] leaf = frames.length == 0 ? frames : new Frame[] {frames[0]};
      byLeaf.merge(leaf.length == 0 ? null : leaf[0].symbol(),
          new StackOnPath(0, new CallStack(leaf), s.ns()),
          (a, b) -> new StackOnPath(0, a.stack(), a.ns() + b.ns()));
    }
    Map<String, WaitOnPath> byWait = new LinkedHashMap<>(); // by kind and reason
    for (WaitOnPath w : waits) {
      byWait.merge(w.kind() + "\u0000" + w.reason(),
          new WaitOnPath(0, w.kind(), w.reason(), new CallStack(new Frame[0]), w.ns()),
          (a, b) -> new WaitOnPath(0, a.kind(), a.reason(), a.stack(), a.ns() + b.ns()));
    }
    long length = pathNs();
    return new CriticalPath(spanStartNs, spanEndNs, List.of(new PathSegment(0, spanStartNs,
        spanStartNs + length, Kind.RUNNING, "")), List.of(), List.of(), Map.of(), onCpuNs,
        runnableOwnNs, runnableOtherNs, List.of(), Map.of(), List.copyOf(byLeaf.values()),
        List.copyOf(byWait.values()), List.of());
  }

  /**
   * Serialized as {@link CriticalPathCodec} writes it: a run's stored figures hold its
   * processes' paths, and nightly reads every past run's back.
   */
  private Object writeReplace() {
    return new CriticalPathCodec.Compact(CriticalPathCodec.encode(this));
  }

  /** The path's bytes as it is serialized ({@link CriticalPathCodec}), for a codec of its holder. */
  public static byte[] encoded(CriticalPath path) {
    return CriticalPathCodec.encode(path);
  }

  /**
   * The path of {@link #encoded} bytes.
   *
   * @throws java.io.IOException when they are damaged
   */
  public static CriticalPath decoded(byte[] bytes) throws java.io.IOException {
    return CriticalPathCodec.decode(bytes);
  }

  /**
   * A wait as a frame of the folded stacks and the profiles: "[blocked: timer]", "[waiting for a
   * CPU: own threads]", "[waiting for a CPU: process NAME]".
   */
  public static String waitLabel(Kind kind, String reason) {
    return switch (kind) {
      case BLOCKED -> "[blocked: " + reason + "]";
      case RUNNABLE_OWN -> "[waiting for a CPU: own threads]";
      case RUNNABLE_OTHER -> "[waiting for a CPU: " + (reason.isEmpty() ? "another process"
          : reason) + "]";
      case RUNNING -> "[running]";
    };
  }

  public long spanNs() {
    return spanEndNs - spanStartNs;
  }

  /** The path's length: the sum of its segments (the span, within rounding). */
  public long pathNs() {
    long n = 0;
    for (PathSegment s : segments) {
      n += s.ns();
    }
    return n;
  }

  /** Time-ordered, covering the span. */
  public List<PathSegment> segments() {
    return segments;
  }

  /** Most time first. */
  public List<FunctionOnPath> topFunctions() {
    return topFunctions;
  }

  /** Most time first. */
  public List<ThreadShare> threads() {
    return threads;
  }

  /** Blocked time on the path by reason, most first. */
  public Map<String, Long> blockedByReason() {
    return blockedByReason;
  }

  public long blockedNs() {
    long n = 0;
    for (long v : blockedByReason.values()) {
      n += v;
    }
    return n;
  }

  public long onCpuNs() {
    return onCpuNs;
  }

  public long runnableOwnNs() {
    return runnableOwnNs;
  }

  public long runnableOtherNs() {
    return runnableOtherNs;
  }

  /** Per function: 10, 25, 50 % (and the --what-if shares), in that order. */
  public List<WhatIf> whatIfs() {
    return whatIfs;
  }

  /**
   * The critical folded stacks, sorted: on-CPU stacks root first, and waits under a first frame
   * that names them ("[blocked: timer]", "[waiting for a CPU]"); values in ns on the path.
   */
  public Map<String, Long> foldedNs() {
    return folded;
  }

  /** The on-CPU stacks on the path with their frames, per thread. */
  public List<StackOnPath> stacks() {
    return stacks;
  }

  /** The waits on the path by thread, kind, reason and stack, most first. */
  public List<WaitOnPath> waits() {
    return waits;
  }

  /** What may be off in this path, one line each; empty when nothing. */
  public List<String> notes() {
    return notes;
  }
}
