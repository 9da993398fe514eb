package dev.loadprof.model;

import java.io.Serializable;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counters that say how much of a trace could be used and how much had to be repaired. Every
 * input line ends up in exactly one of the line counters, so that they add up to the input.
 */
public final class TraceHealth implements Serializable {
  // Counter names, as written to summary.json.
  public static final String LINES = "lines";
  public static final String SAMPLE_RECORDS = "sample_records";
  public static final String SWITCH_RECORDS = "switch_records";
  public static final String WAKEUP_RECORDS = "wakeup_records";
  public static final String TASK_RECORDS = "task_records";
  public static final String IGNORED_RECORDS = "ignored_records";
  public static final String MALFORMED_LINES = "malformed_lines";
  public static final String LOST_EVENTS = "lost_events";
  /** Nanoseconds with sampling throttled by the kernel (perf.data's THROTTLE records). */
  public static final String THROTTLED_NS = "throttled_ns";
  public static final String FREQ_SAMPLED_SWITCH_RECORDS = "freq_sampled_switch_records";
  public static final String SWITCHES_LOST_TO_SAMPLING = "switches_lost_to_sampling";
  public static final String CHAIN_BREAKS_REPAIRED = "chain_breaks_repaired";
  public static final String CHAIN_BREAKS_FROM_WAKEUP = "chain_breaks_from_wakeup";
  public static final String EDGES_INFERRED = "edge_intervals_inferred";
  public static final String SAMPLES_CONTRADICTED = "samples_contradicted";
  public static final String IDLE_SAMPLES = "idle_samples";
  public static final String SAMPLES_OTHER_EVENT = "samples_other_event";
  public static final String EXITED_THREAD_SWITCHES = "exited_thread_switches";
  public static final String SAMPLES_UNKNOWN_PROCESS = "samples_unknown_process";
  public static final String OUT_OF_ORDER_SAMPLES = "out_of_order_samples";
  public static final String OUT_OF_ORDER_SWITCHES = "out_of_order_switches";
  public static final String OUT_OF_ORDER_WAKEUPS = "out_of_order_wakeups";
  public static final String SAMPLES_IN_PROFILES = "samples_in_profiles";
  public static final String SAMPLES_FILTERED_OUT = "samples_filtered_out";
  public static final String SAMPLES_OF_UNUSABLE_RUN = "samples_of_unusable_run";
  public static final String UNKNOWN_PID_SWITCHES = "switches_with_unknown_pid";
  /**
   * Switches to or from a thread that no record of the whole trace belongs to (no sample,
   * switch-out, FORK or COMM of its own): perf recorded nothing in its context, so it is no
   * recorded process's thread (on these VMs, a host agent's threads on one CPU).
   */
  public static final String UNSEEN_THREAD_SWITCHES = "switches_of_unseen_threads";
  /** Context-switch records of the idle task (CPU-wide records of tid 0): not a thread's lane. */
  public static final String IDLE_SWITCH_RECORDS = "idle_switch_records";
  /** Threads whose last context-switch record is IN: the trace ended while they were in. */
  public static final String THREADS_IN_AT_END = "threads_in_at_trace_end";
  /** 1 when the blocks are per thread (per-process recordings), not per CPU; else absent. */
  public static final String THREAD_LANES = "thread_lanes";
  /**
   * sched:sched_switch records of a run whose samples have no CPU (a per-process recording): per
   * thread they are only its own switch-outs, so they are ignored (and in ignored_records).
   */
  public static final String PER_THREAD_SCHED_SWITCHES = "sched_switch_records_of_a_process";
  // Damaged input; these appear in summary.json only when a trace has them.
  public static final String DUPLICATE_SAMPLES = "duplicate_samples";
  public static final String DUPLICATE_SWITCHES = "duplicate_switches";
  public static final String DUPLICATE_WAKEUPS = "duplicate_wakeups";
  public static final String SAMPLES_OUTSIDE_RUN = "samples_outside_run";
  public static final String SWITCHES_OUTSIDE_RUN = "switches_outside_run";
  public static final String WAKEUPS_OUTSIDE_RUN = "wakeups_outside_run";
  public static final String SAMPLES_PERIOD_TOO_LONG = "samples_period_longer_than_run";
  public static final String SAMPLES_UNKNOWN_THREAD = "samples_of_unknown_thread";
  /**
   * A perf.data file's data section (bytes), and what of it could not be read: damaged records
   * (their bytes and number), the byte offset of the first, and the records read after it.
   */
  public static final String PERF_DATA_BYTES = "perf_data_bytes";
  public static final String PERF_DATA_UNREAD_BYTES = "perf_data_unread_bytes";
  public static final String PERF_DATA_UNREAD_RECORDS = "perf_data_unread_records";
  public static final String PERF_DATA_FIRST_UNREAD_BYTE = "perf_data_first_unread_byte";
  public static final String PERF_DATA_RECORDS_AFTER_DAMAGE = "perf_data_records_after_damage";
  /** New processes of a pid: reuse after an exit (FORK), or exec (ProcessKey). */
  public static final String PID_RESTARTS = "pid_restarts";
  /** Execs whose window had closed already: the thread's time moves over at its next switch. */
  public static final String EXEC_SWITCHES_LATE = "exec_switches_late";
  /** Restarts of one pid beyond ProcessKey.MAX_RESTARTS, merged into the last process. */
  public static final String PID_RESTARTS_MERGED = "pid_restarts_merged";

  /** At most this many malformed lines are kept verbatim, with their line numbers. */
  public static final int MAX_EXAMPLES = 20;

  // Guarded by this until frozen.
  private final TreeMap<String, Long> counters = new TreeMap<>();
  private final List<String> malformedExamples = new ArrayList<>();
  /**
   * Adds not yet in {@link #counters}, by counter: the parse step adds per record, and a hash
   * lookup of a constant name with a mutable cell is several times cheaper than a sorted map's
   * string compares and a new Long. Every read folds them in first.
   */
  private transient HashMap<String, long[]> pending;
  /** Once {@link #freeze frozen}: the counters and examples for good, read without the lock. */
  private transient volatile Map<String, Long> frozenCounters;
  private transient volatile List<String> frozenExamples;

  /**
   * Adds to a counter. Adds and reads may come from any thread (each holds the lock), until the
   * health is {@link #freeze frozen}; an add after that is a bug, and throws.
   */
  public synchronized void add(String counter, long delta) {
    if (delta != 0) {
      checkNotFrozen(counter);
      if (pending == null) {
        pending = new HashMap<>();
      }
      pending.computeIfAbsent(counter, c -> new long[1])[0] += delta;
    }
  }

  public void increment(String counter) {
    add(counter, 1);
  }

  public long get(String counter) {
    Map<String, Long> frozen = frozenCounters;
    if (frozen != null) {
      return frozen.getOrDefault(counter, 0L);
    }
    synchronized (this) {
      long[] notYet = pending == null ? null : pending.get(counter);
      return counters.getOrDefault(counter, 0L) + (notYet == null ? 0 : notYet[0]);
    }
  }

  /**
   * The counters with every add folded in, as they are now: a snapshot that no later add
   * changes and no caller can change, so it can be read on any thread, at any time.
   */
  public Map<String, Long> counters() {
    Map<String, Long> frozen = frozenCounters;
    if (frozen != null) {
      return frozen;
    }
    synchronized (this) {
      fold();
      return Collections.unmodifiableMap(new TreeMap<>(counters));
    }
  }

  /** A counter added to at all is kept, even if its adds sum to 0, as a direct merge keeps it. */
  private void fold() {
    if (pending != null && !pending.isEmpty()) {
      pending.forEach((counter, sum) -> counters.merge(counter, sum[0], Long::sum));
      pending.clear();
    }
  }

  /** Keeps "file:line: reason" for the first MAX_EXAMPLES malformed lines. */
  public synchronized void addMalformedExample(String example) {
    checkNotFrozen("malformed line examples");
    if (malformedExamples.size() < MAX_EXAMPLES) {
      malformedExamples.add(example);
    }
  }

  /** The examples kept, as they are now (a snapshot, as {@link #counters}). */
  public List<String> malformedExamples() {
    List<String> frozen = frozenExamples;
    if (frozen != null) {
      return frozen;
    }
    synchronized (this) {
      return List.copyOf(malformedExamples);
    }
  }

  /**
   * Makes the health final: reads are then lock-free and an add throws. Call it once the run's
   * health is complete, before the health is read on several threads (an Analysis does, for
   * its runs). A copy ({@link #addAll} into a new health) can still be added to.
   */
  public synchronized void freeze() {
    if (frozenCounters == null) {
      fold();
      frozenExamples = List.copyOf(malformedExamples);
      frozenCounters = Collections.unmodifiableMap(new TreeMap<>(counters));
    }
  }

  public boolean isFrozen() {
    return frozenCounters != null;
  }

  private void checkNotFrozen(String what) {
    if (frozenCounters != null) {
      throw new IllegalStateException("the run's health is final (frozen for the reports);"
          + " cannot add to " + what + ": add before the analysis is made, or to a copy");
    }
  }

  private synchronized void writeObject(ObjectOutputStream out) throws IOException {
    fold(); // the pending adds are transient
    out.defaultWriteObject();
  }

  /**
   * A health as stored (its counters and examples as {@link #counters} and {@link
   * #malformedExamples} gave them): a counter of 0 is kept, where {@link #add} of 0 keeps none.
   */
  public static TraceHealth of(Map<String, Long> counters, List<String> malformedExamples) {
    TraceHealth h = new TraceHealth();
    h.counters.putAll(counters);
    h.malformedExamples.addAll(malformedExamples);
    return h;
  }

  /** Adds every counter and example of {@code other}, as they are now. */
  public void addAll(TraceHealth other) {
    other.counters().forEach(this::add);
    for (String e : other.malformedExamples()) {
      addMalformedExample(e);
    }
  }
}
