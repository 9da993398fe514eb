package dev.loadprof.block;

import static dev.loadprof.model.TraceEventSink.UNKNOWN_ID;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.Switches;
import dev.loadprof.model.TraceHealth;
import java.util.HashMap;
import java.util.Map;

/**
 * Which process each thread belongs to, as far as the trace has told so far (PERF_RECORD_COMM
 * and FORK, and the pid/tid of record headers), and the names of the processes. Traces in the
 * plain perf script layout have no pids; there a process is the group of threads sharing a name.
 */
final class ThreadTable {
  private final RunInfo info;
  private final Map<Integer, Integer> pidOfTid = new HashMap<>();
  /** Plain layout only: processes are named groups of threads; comm -> representative pid. */
  private final Map<String, Integer> pidOfComm = new HashMap<>();
  private final Map<Integer, String> commOfTid = new HashMap<>();
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

  /** PERF_RECORD_COMM: the thread's process, which takes the name of its main thread. */
  void comm(int pid, int tid, String comm) {
    pidOfTid.put(tid, pid);
    if (pid == tid || !info.processNames.containsKey(pid)) {
      info.processNames.put(pid, comm);
    }
  }

  /** PERF_RECORD_FORK: a new process is named after its parent until it says otherwise. */
  void fork(int pid, int tid, int parentPid) {
    pidOfTid.put(tid, pid);
    if (!info.processNames.containsKey(pid)) {
      String parentName = info.processNames.get(parentPid);
      if (parentName != null) {
        info.processNames.put(pid, parentName);
      }
    }
  }

  /** The process of a thread whose record header may name it (pid) or not (UNKNOWN_ID). */
  int learn(int pid, int tid, String comm) {
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
