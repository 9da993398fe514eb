package dev.loadprof.block;

import static dev.loadprof.model.TraceEventSink.UNKNOWN_ID;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.Samples;
import dev.loadprof.model.Switches;
import dev.loadprof.model.TraceHealth;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which process each thread belongs to, as far as the trace has told so far (PERF_RECORD_COMM
 * and FORK, and the pid/tid of record headers), and the names of the processes. Traces in the
 * plain perf script layout have no pids; there a process is the group of threads sharing a name.
 *
 * <p>A pid forked anew after its process exited, and a process that calls exec, start a new
 * process ({@link ProcessKey}); the pids this table hands out are those keys. Records are
 * learned in file order, which within a window need not be time order, so the blocks' pids are
 * set by time again when a window is complete ({@link #resolveLateThreads}). It also learns
 * which processes are the program perf started and its descendants (the run's subject).
 */
final class ThreadTable {
  /** The name perf gives the child it forks to exec the command of perf record -- CMD. */
  static final String PERF_EXEC = "perf-exec";

  private final RunInfo info;
  private final Map<Integer, Integer> pidOfTid = new HashMap<>();
  /** Plain layout only: processes are named groups of threads; comm -> representative pid. */
  private final Map<String, Integer> pidOfComm = new HashMap<>();
  private final Map<Integer, String> commOfTid = new HashMap<>();
  /**
   * For each pid that started anew at least once: start time -> key of the process from then
   * on (the first process from Long.MIN_VALUE). Most traces have none.
   */
  private final Map<Integer, TreeMap<Long, Integer>> startsOfPid = new HashMap<>();
  /** Pids the trace has named (FORK, COMM or a record header): a new FORK of one is reuse. */
  private final Set<Integer> seenPids = new HashSet<>();
  /** Threads that switch records named while their process was unknown: tid -> switches. */
  private final Map<Integer, Long> unknownSwitchesOfTid = new HashMap<>();
  private boolean plainLayout;

  /** @param info receives the process names; its health tells whether task records were seen */
  ThreadTable(RunInfo info) {
    this.info = info;
  }

  boolean plainLayout() {
    return plainLayout;
  }

  /**
   * The first sample or switch tells the layout: plain perf script has no pids and no task
   * records; the recommended layout has "pid/tid" headers.
   */
  void detectLayout(boolean firstRecord, int headerPid) {
    if (firstRecord && info.health.get(TraceHealth.TASK_RECORDS) == 0
        && headerPid == UNKNOWN_ID) {
      plainLayout = true;
    }
  }

  /**
   * PERF_RECORD_COMM: the thread's process, which takes the name of its main thread. An exec
   * ends the process: the program it loads is a new process of the same pid.
   *
   * @return the key of the process before the exec when this record started a new one (the
   *     caller moves the running thread over), else UNKNOWN_ID
   */
  int comm(long timeNs, int pid, int tid, String comm, boolean exec) {
    int before = keyOf(pid);
    int key = exec && pid > 0 && seenPids.contains(pid) ? restart(pid, timeNs) : before;
    seenPids.add(pid);
    pidOfTid.put(tid, key);
    if (pid == tid || key != before || !info.processNames.containsKey(key)) {
      info.processNames.put(key, comm);
    }
    if (key != before) {
      learnSubjectAtExec(before, key);
    }
    return key != before ? before : UNKNOWN_ID;
  }

  /**
   * The program perf started is the subject ({@link RunInfo#subjectPid}): perf forks a child
   * named {@code perf-exec} (perf writes its COMM record when the recording starts) that execs
   * the command. A subject process that execs stays the subject as its new program.
   */
  private void learnSubjectAtExec(int before, int after) {
    if (info.isSubject(before)) {
      info.subjectPids.add(after);
      if (info.subjectPid == before) {
        info.subjectPid = after;
      }
    } else if (!info.hasSubject() && PERF_EXEC.equals(info.processNames.get(before))) {
      info.subjectPid = after;
      info.subjectPids.add(after);
    }
  }

  /**
   * PERF_RECORD_FORK: a new process is named after its parent until it says otherwise. A new
   * process (pid == tid) of a pid seen before reuses the pid of one that has exited; perf's
   * own records of the processes alive at the start (time 0) never do.
   */
  void fork(long timeNs, int pid, int tid, int parentPid) {
    fork(timeNs, pid, tid, parentPid, UNKNOWN_ID);
  }

  /** The same; a thread its own process created is kept with its creator (critical path). */
  void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    int key = pid == tid && pid > 0 && timeNs > 0 && seenPids.contains(pid)
        ? restart(pid, timeNs) : keyOf(pid);
    if (pid != tid && pid == parentPid && parentTid > 0 && timeNs > 0) {
      info.threadForks.put(tid, new long[] {timeNs, parentTid});
    }
    seenPids.add(pid);
    pidOfTid.put(tid, key);
    if (pid == tid && info.isSubject(keyOf(parentPid))) {
      info.subjectPids.add(key); // a process the subject started is the subject's too
    }
    if (!info.processNames.containsKey(key)) {
      String parentName = info.processNames.get(keyOf(parentPid));
      if (parentName != null) {
        info.processNames.put(key, parentName);
      }
    }
  }

  /** The key of the current process of a pid. */
  private int keyOf(int pid) {
    TreeMap<Long, Integer> starts = startsOfPid.get(pid);
    return starts == null ? pid : starts.lastEntry().getValue();
  }

  /**
   * Starts the next process of a pid at timeNs. A start no later than the pid's latest is the
   * same record again (a trace appended to itself), not a new process.
   */
  private int restart(int pid, long timeNs) {
    TreeMap<Long, Integer> starts = startsOfPid.computeIfAbsent(pid, p -> {
      TreeMap<Long, Integer> first = new TreeMap<>();
      first.put(Long.MIN_VALUE, pid);
      return first;
    });
    Map.Entry<Long, Integer> latest = starts.lastEntry();
    if (timeNs <= latest.getKey()) {
      return latest.getValue();
    }
    int next = ProcessKey.restart(latest.getValue()) + 1;
    if (next > ProcessKey.MAX_RESTARTS) {
      info.health.increment(TraceHealth.PID_RESTARTS_MERGED);
      return latest.getValue();
    }
    int key = ProcessKey.of(pid, next);
    starts.put(timeNs, key);
    info.health.increment(TraceHealth.PID_RESTARTS);
    return key;
  }

  /** The process a record of this pid's at timeNs belongs to (a key as handed out). */
  private int keyAt(int key, long timeNs) {
    if (key < 0 || startsOfPid.isEmpty()) {
      return key;
    }
    TreeMap<Long, Integer> starts = startsOfPid.get(ProcessKey.pid(key));
    return starts == null ? key : starts.floorEntry(timeNs).getValue();
  }

  /**
   * Gives processes of one pid that ended up with the same name (a program restarted under a
   * recycled pid) distinct names: the second of a name gets "#2", the third "#3", by start.
   */
  void nameRestartsApart() {
    for (Map.Entry<Integer, TreeMap<Long, Integer>> e : startsOfPid.entrySet()) {
      Map<String, Integer> seen = new HashMap<>();
      for (int key : e.getValue().values()) {
        String name = info.processNames.get(key);
        if (name != null) {
          int nth = seen.merge(name, 1, Integer::sum);
          if (nth > 1) {
            info.processNames.put(key, name + "#" + nth);
          }
        }
      }
    }
  }

  /** The process of a thread whose record header may name it (pid) or not (UNKNOWN_ID). */
  int learn(int pid, int tid, String comm) {
    if (tid == 0) {
      return 0;
    }
    if (pid != UNKNOWN_ID) {
      seenPids.add(pid);
      int key = keyOf(pid);
      pidOfTid.put(tid, key);
      String name = info.processNames.get(key);
      if (name == null && comm != null && !comm.startsWith(":-1")) {
        info.processNames.put(key, comm);
      } else if (name != null && name.equals(PERF_EXEC) && pid == tid && comm != null
          && !comm.equals(PERF_EXEC) && !comm.startsWith(":-1")) {
        execSeenInSamples(key, comm);
      }
      return key;
    }
    return pidOf(tid, comm);
  }

  /**
   * perf script without --show-task-events: perf's child is known by its samples alone, first
   * as perf-exec, then (its main thread) as the program it exec'd, which is the subject.
   */
  private void execSeenInSamples(int key, String comm) {
    if (info.health.get(TraceHealth.TASK_RECORDS) != 0) {
      return; // the exec record makes the program a process of its own (comm above)
    }
    info.processNames.put(key, comm);
    if (!info.hasSubject()) {
      info.subjectPid = key;
      info.subjectPids.add(key);
    }
  }

  /** The process of a thread as known now, or UNKNOWN_ID. */
  int pidOf(int tid, String comm) {
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

  /**
   * A thread can be switched in before the record that names its process (perf-exec, say, runs
   * before its PERF_RECORD_COMM). By the end of the window its process is usually known.
   */
  void resolveLateThreads(EventBlock b) {
    Switches s = b.switches;
    for (int i = 0; i < s.count; i++) {
      if (s.prevPid[i] == UNKNOWN_ID) {
        s.prevPid[i] = pidOfTid.getOrDefault(s.prevTid[i], UNKNOWN_ID);
      }
      if (s.nextPid[i] == UNKNOWN_ID) {
        s.nextPid[i] = pidOfTid.getOrDefault(s.nextTid[i], UNKNOWN_ID);
      }
      if (s.prevPid[i] == UNKNOWN_ID || s.nextPid[i] == UNKNOWN_ID) {
        int tid = s.nextPid[i] == UNKNOWN_ID ? s.nextTid[i] : s.prevTid[i];
        unknownSwitchesOfTid.merge(tid, 1L, Long::sum);
      }
    }
    if (b.carryIn.kind == CpuState.Kind.RUNNING && b.carryIn.pid == UNKNOWN_ID) {
      b.carryIn.pid = pidOfTid.getOrDefault(b.carryIn.tid, UNKNOWN_ID);
    }
    if (!startsOfPid.isEmpty()) {
      keysByTime(b);
    }
  }

  /**
   * At the end of the trace, counts the switches that named a thread of unknown process
   * ({@link TraceHealth#UNKNOWN_PID_SWITCHES}), apart from those of threads that no record of the
   * whole trace belongs to ({@link TraceHealth#UNSEEN_THREAD_SWITCHES}). A thread of a recorded
   * process is known by its own samples and switch-outs, even when its FORK was lost, so only
   * the others are left: switches of a thread known later still warn (RunWarnings).
   */
  void countUnknownThreadSwitches() {
    long known = 0;
    long unseen = 0;
    for (Map.Entry<Integer, Long> e : unknownSwitchesOfTid.entrySet()) {
      if (pidOfTid.containsKey(e.getKey())) {
        known += e.getValue();
      } else {
        unseen += e.getValue();
      }
    }
    info.health.add(TraceHealth.UNKNOWN_PID_SWITCHES, known);
    info.health.add(TraceHealth.UNSEEN_THREAD_SWITCHES, unseen);
  }

  /**
   * Each pid of the block as of its record's time: records read before the FORK or exec that
   * precedes them in time (disorder within the window) move to the process they belong to.
   * A switch made for an exec itself (same thread in and out) is left as it was made.
   */
  private void keysByTime(EventBlock b) {
    Samples samples = b.samples;
    for (int i = 0; i < samples.count; i++) {
      samples.pid[i] = keyAt(samples.pid[i], samples.time[i]);
    }
    Switches s = b.switches;
    for (int i = 0; i < s.count; i++) {
      if (s.prevTid[i] != s.nextTid[i]) {
        s.prevPid[i] = keyAt(s.prevPid[i], s.time[i]);
        s.nextPid[i] = keyAt(s.nextPid[i], s.time[i]);
      }
    }
  }
}
