package dev.loadprof.parse;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A sink that writes every event as one short line of text, so tests can compare whole event
 * sequences with a list of expected strings. UNKNOWN_ID is written as "?".
 */
final class RecordingSink implements TraceEventSink {
  final List<String> events = new ArrayList<>();
  final List<Frame[]> stacks = new ArrayList<>();
  final List<Long> sampleTimes = new ArrayList<>();
  final List<Long> switchTimes = new ArrayList<>();
  final List<String> malformedLines = new ArrayList<>();
  long samples;
  long switches;
  long switchPeriods;
  long maxSwitchPeriod;
  long wakeups;
  long taskRecords;
  long lost;
  long ignored;
  long malformed;
  /** When false, only counters and times are kept (for the big fixtures). */
  final boolean keepText;

  RecordingSink() {
    this(true);
  }

  RecordingSink(boolean keepText) {
    this.keepText = keepText;
  }

  static String id(int id) {
    return id == UNKNOWN_ID ? "?" : Integer.toString(id);
  }

  private void add(String event) {
    if (keepText) {
      events.add(event);
    }
  }

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    samples++;
    sampleTimes.add(timeNs);
    stacks.add(stack);
    add("sample " + timeNs + " cpu=" + cpu + " " + id(pid) + "/" + id(tid) + " '" + comm + "' "
        + event + " " + period + " " + frames(stack));
  }

  private static String frames(Frame[] stack) {
    return Arrays.stream(stack).map(Frame::toString).collect(Collectors.joining(" | ", "[", "]"));
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
    switches++;
    switchPeriods += period;
    maxSwitchPeriod = Math.max(maxSwitchPeriod, period);
    switchTimes.add(timeNs);
    add("switch " + timeNs + " cpu=" + cpu + " period=" + period + " " + id(prevPid) + "/"
        + id(prevTid) + " '" + prevComm + "' " + prevState + " ==> " + id(nextTid) + " '"
        + nextComm + "'" + (prevStack.length == 0 ? "" : " " + frames(prevStack)));
  }

  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempt) {
    switches++;
    switchTimes.add(timeNs);
    add("cswitch " + timeNs + " cpu=" + id(cpu) + " " + id(pid) + "/" + id(tid) + " '" + comm
        + "' " + (in ? "IN" : "OUT") + (preempt ? " preempt" : ""));
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid, String comm,
      int targetCpu) {
    wakeups++;
    add("wakeup " + timeNs + " cpu=" + cpu + " " + id(tid) + " '" + comm + "' target=" + targetCpu
        + " by " + id(wakerPid) + "/" + id(wakerTid));
  }

  @Override
  public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
    taskRecords++;
    add("comm " + timeNs + " " + id(pid) + "/" + id(tid) + " '" + comm + "'"
        + (exec ? " exec" : ""));
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    taskRecords++;
    add("fork " + timeNs + " " + id(pid) + "/" + id(tid) + " parent=" + id(parentPid) + "/"
        + id(parentTid));
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    taskRecords++;
    add("exit " + timeNs + " " + id(pid) + "/" + id(tid));
  }

  @Override
  public void lost(long timeNs, long count) {
    lost += count;
    add("lost " + timeNs + " " + count);
  }

  @Override
  public void ignored(String event) {
    ignored++;
    add("ignored " + event);
  }

  @Override
  public void malformed(long lineNumber, String reason, String line) {
    malformed++;
    malformedLines.add(line);
    add("malformed " + lineNumber + ": " + reason);
  }
}
