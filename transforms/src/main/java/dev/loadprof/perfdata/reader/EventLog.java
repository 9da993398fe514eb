package dev.loadprof.perfdata.reader;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.util.function.Consumer;

/**
 * A sink that keeps each event it is sent as a call to replay on another sink later, in the
 * same order: what a thread decodes goes to the real sink from the one thread that may call it.
 */
final class EventLog implements TraceEventSink {
  /** One event, to be sent to a sink. */
  interface Event extends Consumer<TraceEventSink> {}

  private final Consumer<Object> out;

  /** Hands each event, as an {@link Event}, to {@code out}. */
  EventLog(Consumer<Object> out) {
    this.out = out;
  }

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    out.accept((Event) s -> s.sample(timeNs, cpu, pid, tid, comm, event, period, stack));
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] stack) {
    out.accept((Event) s -> s.schedSwitch(timeNs, cpu, period, prevPid, prevTid, prevComm,
        prevState, nextTid, nextComm, stack));
  }

  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempted) {
    out.accept((Event) s -> s.contextSwitch(timeNs, cpu, pid, tid, comm, in, preempted));
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid,
      String comm, int targetCpu) {
    out.accept((Event) s -> s.schedWakeup(timeNs, cpu, wakerPid, wakerTid, tid, comm,
        targetCpu));
  }

  @Override
  public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
    out.accept((Event) s -> s.comm(timeNs, cpu, pid, tid, comm, exec));
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    out.accept((Event) s -> s.fork(timeNs, pid, tid, parentPid, parentTid));
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    out.accept((Event) s -> s.exit(timeNs, pid, tid));
  }

  @Override
  public void lost(long timeNs, long count) {
    out.accept((Event) s -> s.lost(timeNs, count));
  }

  @Override
  public void ignored(String event) {
    out.accept((Event) s -> s.ignored(event));
  }

  @Override
  public void malformed(long lineNumber, String reason, String line) {
    out.accept((Event) s -> s.malformed(lineNumber, reason, line));
  }
}
