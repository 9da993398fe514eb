package dev.loadprof.block;

import static dev.loadprof.model.TraceEventSink.UNKNOWN_ID;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.Switches;
import dev.loadprof.model.TraceHealth;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which process each thread belongs to, as far as the trace has told so far (PERF_RECORD_COMM
 * and FORK, and the pid/tid of record headers), and the names of the processes. Traces in the
 * plain perf script layout have no pids; there a process is the group of threads sharing a name.
 * A pid forked anew after its process exited starts a new process ({@link ProcessKey}); the
 * pids this table hands out are those keys.
 */
final class ThreadTable {
  private final RunInfo info;
  private final Map<Integer, Integer> pidOfTid = new HashMap<>();
  /** Plain layout only: processes are named groups of threads; comm -> representative pid. */
  private final Map<String, Integer> pidOfComm = new HashMap<>();
  private final Map<Integer, String> commOfTid = new HashMap<>();
  /** The key of the current process of each pid that has started anew at least once. */
  private final Map<Integer, Integer> keyOfPid = new HashMap<>();
  /** Pids the trace has named (FORK, COMM or a record header): a new FORK of one is reuse. */
  private final Set<Integer> seenPids = new HashSet<>();
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
   * keeps the process (same pid, same threads' intervals): it takes the new program's name.
   */
  void comm(int pid, int tid, String comm) {
    seenPids.add(pid);
    int key = keyOf(pid);
    pidOfTid.put(tid, key);
    if (pid == tid || !info.processNames.containsKey(key)) {
      info.processNames.put(key, comm);
    }
  }

  /**
   * PERF_RECORD_FORK: a new process is named after its parent until it says otherwise. A new
   * process (pid == tid) of a pid seen before reuses the pid of one that has exited.
   */
  void fork(int pid, int tid, int parentPid) {
    int key = pid == tid && pid > 0 && seenPids.contains(pid) ? restart(pid) : keyOf(pid);
    seenPids.add(pid);
    pidOfTid.put(tid, key);
    if (!info.processNames.containsKey(key)) {
      String parentName = info.processNames.get(keyOf(parentPid));
      if (parentName != null) {
        info.processNames.put(key, parentName);
      }
    }
  }

  /** The key of the current process of a pid. */
  private int keyOf(int pid) {
    return keyOfPid.getOrDefault(pid, pid);
  }

  /** Starts the next process of a pid; its threads are learned from here on. */
  private int restart(int pid) {
    int next = ProcessKey.restart(keyOf(pid)) + 1;
    if (next > ProcessKey.MAX_RESTARTS) {
      info.health.increment(TraceHealth.PID_RESTARTS_MERGED);
    }
    int key = ProcessKey.of(pid, next);
    keyOfPid.put(pid, key);
    info.health.increment(TraceHealth.PID_RESTARTS);
    return key;
  }

  /**
   * Gives processes of one pid that ended up with the same name (a program restarted under a
   * recycled pid) distinct names: the later ones get "#2", "#3", ... by start.
   */
  void nameRestartsApart() {
    if (keyOfPid.isEmpty()) {
      return;
    }
    for (Map.Entry<Integer, Integer> e : keyOfPid.entrySet()) {
      int pid = e.getKey();
      Set<String> taken = new HashSet<>();
      for (int n = 0; n <= ProcessKey.restart(e.getValue()); n++) {
        int key = ProcessKey.of(pid, n);
        String name = info.processNames.get(key);
        if (name != null && !taken.add(name)) {
          String renamed = name + "#" + (n + 1);
          info.processNames.put(key, renamed);
          taken.add(renamed);
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
      if (!info.processNames.containsKey(key) && comm != null && !comm.startsWith(":-1")) {
        info.processNames.put(key, comm);
      }
      return key;
    }
    return pidOf(tid, comm);
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
        info.health.increment(TraceHealth.UNKNOWN_PID_SWITCHES);
      }
    }
    if (b.carryIn.kind == CpuState.Kind.RUNNING && b.carryIn.pid == UNKNOWN_ID) {
      b.carryIn.pid = pidOfTid.getOrDefault(b.carryIn.tid, UNKNOWN_ID);
    }
  }
}
