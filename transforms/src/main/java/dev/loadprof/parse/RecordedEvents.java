package dev.loadprof.parse;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of one part of a trace, parsed on a worker thread and kept in order, to be handed to
 * the run's one sink later ({@link ParallelTextParser}). Line numbers of malformed lines are the
 * part's own, counted from 1; {@link #replay} adds the lines of the parts before.
 */
final class RecordedEvents implements TraceEventSink {
  /** One recorded call. */
  private interface Event {
    void replay(TraceEventSink sink, long linesBefore);
  }

  private final List<Event> events = new ArrayList<>();

  /** Sends every recorded event to {@code sink}, in the order they were recorded. */
  void replay(TraceEventSink sink, long linesBefore) {
    for (Event e : events) {
      e.replay(sink, linesBefore);
    }
  }

  int size() {
    return events.size();
  }

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    events.add((s, l) -> s.sample(timeNs, cpu, pid, tid, comm, event, period, stack));
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
    events.add((s, l) -> s.schedSwitch(timeNs, cpu, period, prevPid, prevTid, prevComm,
        prevState, nextTid, nextComm, prevStack));
  }

  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempt) {
    events.add((s, l) -> s.contextSwitch(timeNs, cpu, pid, tid, comm, in, preempt));
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid, String comm,
      int targetCpu) {
    events.add((s, l) -> s.schedWakeup(timeNs, cpu, wakerPid, wakerTid, tid, comm, targetCpu));
  }

  @Override
  public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
    events.add((s, l) -> s.comm(timeNs, cpu, pid, tid, comm, exec));
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    events.add((s, l) -> s.fork(timeNs, pid, tid, parentPid, parentTid));
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    events.add((s, l) -> s.exit(timeNs, pid, tid));
  }

  @Override
  public void lost(long timeNs, long count) {
    events.add((s, l) -> s.lost(timeNs, count));
  }

  @Override
  public void ignored(String event) {
    events.add((s, l) -> s.ignored(event));
  }

  @Override
  public void malformed(long lineNumber, String reason, String line) {
    events.add((s, l) -> s.malformed(l + lineNumber, reason, line));
  }
}
