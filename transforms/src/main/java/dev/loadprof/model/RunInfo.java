package dev.loadprof.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What is known of one run (one trace) as a whole: where it came from, how it was sampled, its
 * time span, the names of its processes, and its health counters. Built while the trace is read.
 */
public final class RunInfo implements Serializable {
  /**
   * What a warning says after "SOURCE: " when it names what a per-process recording cannot see
   * (kernel time, other processes, wait states, switch-out stacks): nothing the analysis got
   * wrong, and one fix for all (record system-wide as root), so the console tells them as one
   * info line; summary.json keeps each.
   */
  public static final String PER_PROCESS_LIMIT = "per-process recording: ";

  /** Stable id of the run: the source file name without directories and compression suffixes. */
  public String runId = "";
  /** The file the run was read from, as given. */
  public String source = "";
  /** Host name, when the input says it (e.g. perf script --header); else "". */
  public String host = "";
  /**
   * The date the trace was recorded, ISO (2026-11-22), from the {@code # captured on} header line
   * of perf script --header; "" when the trace does not say. The night of a nightly run whose
   * run id has no date.
   */
  public String capturedOn = "";
  /**
   * The run's night (ISO date) as dev.loadprof.archive.NightRule decides it when the run enters a
   * job; "" when nothing gives one, or the run was built without a job. Not part of equals.
   */
  public String night = "";
  /**
   * Why the night is in doubt (one line naming the run; NightRule), "" when it is not: such a
   * run is never the latest night of nightly. Not part of equals.
   */
  public String nightDoubt = "";
  /** The sampling event used, e.g. "cpu-clock". */
  public String samplingEvent = "";
  /** True when the sampling event's period is in nanoseconds (cpu-clock, task-clock). */
  public boolean periodIsNanoseconds = true;
  /**
   * Typical time between two samples of a running thread, in ns. For ns events the period; for
   * others the median gap between consecutive samples of a thread on one CPU.
   */
  public long sampleIntervalNs;
  /** "fields" for the recommended perf script -F layout, "plain" for bare perf script output. */
  public String layout = "fields";
  /** "trace" when pids come from the trace, "comm" when threads were grouped by name. */
  public String pidSource = "trace";
  /** Number of distinct CPUs seen, and the highest CPU number + 1. */
  public int cpuCount;
  /**
   * What the run's blocks are keyed by: "cpu" (sched_switch, a block's cpu is a CPU), "thread"
   * (per-thread context-switch records, a block's cpu is a tid), or "" before the run is read.
   * Not archived as such (an archived run's health says thread_lanes), not part of equals.
   */
  public String lanes = "";
  public long startNs;
  public long endNs;
  /** Process names: pid to the comm of its main thread (or of its first thread seen). */
  public TreeMap<Integer, String> processNames = new TreeMap<>();
  /**
   * The program perf started ({@code perf record -- CMD}): the process (key, as in
   * processNames) that perf's {@code perf-exec} stub became at its exec, or, when that process
   * exec'd again, the last program of that pid. {@link #NO_SUBJECT} when the trace does not say
   * ({@code perf record -a} or {@code -p} without a command; text without task records, unless
   * perf-exec's samples precede the program's).
   */
  public int subjectPid = NO_SUBJECT;
  /** The subject and every process it started, directly or not (keys); empty without one. */
  public TreeSet<Integer> subjectPids = new TreeSet<>();
  /**
   * Threads a thread of their own process created (PERF_RECORD_FORK): tid to {fork time ns,
   * creator tid}, for the critical path's thread-start edges. Archived in the manifest
   * (thread_forks); not part of equals.
   */
  public TreeMap<Integer, long[]> threadForks = new TreeMap<>();
  /**
   * Build ids by object path, as a perf.data file states them (perf buildid-list); empty for text
   * traces, which carry none. Archived (manifest build_ids); not part of equals.
   */
  public TreeMap<String, String> buildIds = new TreeMap<>();
  public TraceHealth health = new TraceHealth();
  /** Where perf lost records, and the records around them; not part of equals. */
  public LossTimeline losses = new LossTimeline();
  /** Loud, human-readable warnings, e.g. that switches were lost to frequency sampling. */
  public List<String> warnings = new ArrayList<>();
  /**
   * Why the run cannot be analyzed (one line naming the file and the perf command to use), or ""
   * when it can. Set when the run has been read (dev.loadprof.block.UnusablePolicy).
   */
  public String unusableReason = "";
  /** The event asked for with --event, or "" for the first sampling event of the trace. */
  public String requestedEvent = "";
  /**
   * Samples of other events than the one used, by event name (at most {@link
   * #MAX_UNUSED_EVENTS} names, the rest under "..."), so that an --event the trace lacks can
   * list the events it has. Neither this nor requestedEvent is archived or part of equals.
   */
  public TreeMap<String, Long> unusedEvents = new TreeMap<>();

  public static final int MAX_UNUSED_EVENTS = 16;
  /** {@link #subjectPid} of a trace that does not say which program perf started. */
  public static final int NO_SUBJECT = -1;

  /** Whether the trace says which program perf started. */
  public boolean hasSubject() {
    return subjectPid != NO_SUBJECT;
  }

  /** Whether the process (a key) is the subject or one of the processes it started. */
  public boolean isSubject(int pid) {
    return subjectPids.contains(pid);
  }

  /** Counts one sample of an event that is not the one used. */
  public void countUnusedEvent(String event) {
    String key = unusedEvents.containsKey(event) || unusedEvents.size() < MAX_UNUSED_EVENTS
        ? event : "...";
    unusedEvents.merge(key, 1L, Long::sum);
  }

  public boolean isUnusable() {
    return !unusableReason.isEmpty();
  }

  /** A deep copy, so that the copy's health and warnings can change without touching this. */
  public RunInfo copy() {
    RunInfo c = new RunInfo();
    c.runId = runId;
    c.source = source;
    c.host = host;
    c.capturedOn = capturedOn;
    c.night = night;
    c.nightDoubt = nightDoubt;
    c.samplingEvent = samplingEvent;
    c.periodIsNanoseconds = periodIsNanoseconds;
    c.sampleIntervalNs = sampleIntervalNs;
    c.layout = layout;
    c.pidSource = pidSource;
    c.cpuCount = cpuCount;
    c.lanes = lanes;
    c.startNs = startNs;
    c.endNs = endNs;
    c.processNames = new TreeMap<>(processNames);
    c.subjectPid = subjectPid;
    c.subjectPids = new TreeSet<>(subjectPids);
    c.threadForks = new TreeMap<>(threadForks);
    c.buildIds = new TreeMap<>(buildIds);
    c.health.addAll(health);
    c.losses = losses.copy();
    c.warnings = new ArrayList<>(warnings);
    c.unusableReason = unusableReason;
    c.requestedEvent = requestedEvent;
    c.unusedEvents = new TreeMap<>(unusedEvents);
    return c;
  }

  public String processName(int pid) {
    String name = processNames.get(pid);
    return name == null ? "pid " + pid : name;
  }

  public Map<Integer, String> processNames() {
    return processNames;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RunInfo r && runId.equals(r.runId) && source.equals(r.source)
        && host.equals(r.host) && capturedOn.equals(r.capturedOn)
        && samplingEvent.equals(r.samplingEvent)
        && periodIsNanoseconds == r.periodIsNanoseconds
        && sampleIntervalNs == r.sampleIntervalNs && layout.equals(r.layout)
        && pidSource.equals(r.pidSource) && cpuCount == r.cpuCount && startNs == r.startNs
        && endNs == r.endNs && processNames.equals(r.processNames)
        && subjectPid == r.subjectPid && subjectPids.equals(r.subjectPids)
        && health.counters().equals(r.health.counters())
        && health.malformedExamples().equals(r.health.malformedExamples())
        && warnings.equals(r.warnings) && unusableReason.equals(r.unusableReason);
  }

  @Override
  public int hashCode() {
    return runId.hashCode() * 31 + Long.hashCode(startNs);
  }
}
