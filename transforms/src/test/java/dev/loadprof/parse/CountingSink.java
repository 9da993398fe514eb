package dev.loadprof.parse;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;

/** Counts events and touches the stack so the work cannot be optimised away (benchmarks). */
public final class CountingSink implements TraceEventSink {
  public long events;
  public long malformed;
  public long frames;

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    events++;
    frames += stack.length;
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
    events++;
  }

  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempt) {
    events++;
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid, String comm,
      int targetCpu) {
    events++;
  }

  @Override
  public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
    events++;
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    events++;
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    events++;
  }

  @Override
  public void lost(long timeNs, long count) {
    events++;
  }

  @Override
  public void ignored(String event) {
    events++;
  }

  @Override
  public void malformed(long lineNumber, String reason, String line) {
    malformed++;
  }
}
