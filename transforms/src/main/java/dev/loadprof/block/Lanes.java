package dev.loadprof.block;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a run's blocks are keyed by. With sched_switch records a lane is a CPU: its switch chain
 * says who ran on it. With per-thread context-switch records (PERF_RECORD_SWITCH, from a
 * per-process recording without root) a lane is a thread: its IN and OUT records say when it ran,
 * whatever CPU that was. Either way the lanes running a process at an instant are that process's
 * threads on a CPU, so the same interval repair and load join apply. The kind is known at the
 * first switch record of either kind (or at a sample without a CPU); events before that wait.
 */
final class Lanes {
  enum Kind { UNDECIDED, CPUS, THREADS }

  /** Events wait at most this long for the first switch record before CPU lanes are assumed. */
  static final int MAX_PENDING_EVENTS = 1 << 20;

  private Kind kind = Kind.UNDECIDED;
  private final List<Runnable> pending = new ArrayList<>();
  /** Thread lanes: the CPUs samples name (for RunInfo.cpuCount), and whose last record was IN. */
  private final Set<Integer> sampleCpus = new TreeSet<>();
  private int lastSampleCpu;
  private final Map<Integer, Boolean> lastSwitchWasIn = new HashMap<>();

  /** Whether the kind is decided: {@link #whenKnown} then runs its event at once. */
  boolean isKnown() {
    return kind != Kind.UNDECIDED;
  }

  boolean byCpu() {
    return kind == Kind.CPUS;
  }

  boolean byThread() {
    return kind == Kind.THREADS;
  }

  /** The lane of an event on a CPU by a thread. */
  int of(int cpu, int tid) {
    return kind == Kind.THREADS ? tid : cpu;
  }

  void noteSampleCpu(int cpu) {
    if (sampleCpus.isEmpty() || cpu != lastSampleCpu) { // most samples repeat the CPU before
      sampleCpus.add(cpu);
      lastSampleCpu = cpu;
    }
  }

  void noteSwitch(int tid, boolean in) {
    lastSwitchWasIn.put(tid, in);
  }

  /** Runs {@code place} now if the kind is known, else when it is. */
  void whenKnown(Runnable place) {
    if (kind != Kind.UNDECIDED) {
      place.run();
      return;
    }
    pending.add(place);
    if (pending.size() >= MAX_PENDING_EVENTS) {
      decide(Kind.CPUS);
    }
  }

  /** Fixes the kind once and places the events that waited for it, in their order. */
  void decide(Kind decided) {
    if (kind != Kind.UNDECIDED) {
      return;
    }
    kind = decided;
    for (Runnable place : pending) {
      place.run();
    }
    pending.clear();
  }

  /** The run's CPU count: the lanes themselves, or for thread lanes the CPUs samples named. */
  int cpuCount(int laneCount) {
    return kind == Kind.THREADS ? sampleCpus.size() : laneCount;
  }

  /** Whether the thread's last context-switch record is IN (it is on a CPU). */
  boolean isIn(int tid) {
    return lastSwitchWasIn.getOrDefault(tid, false);
  }

  /** Threads whose last context-switch record is IN: the trace ended while they were in. */
  long threadsInAtEnd() {
    return lastSwitchWasIn.values().stream().filter(in -> in).count();
  }
}
