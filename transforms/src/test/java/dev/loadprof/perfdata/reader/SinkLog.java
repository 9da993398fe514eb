package dev.loadprof.perfdata.reader;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Every sink call as one line of text, in order, so that two readers' calls can be compared; the
 * frames' symbols (which depend on the symbolizer) are kept apart from the rest.
 */
class SinkLog implements TraceEventSink {
  final List<String> calls = new ArrayList<>();
  /** Per call with a stack: the frames' symbols, "sym|sym|...". */
  final List<String> symbols = new ArrayList<>();
  final TreeMap<String, Integer> counts = new TreeMap<>();

  private void add(String kind, String call) {
    calls.add(kind + " " + call);
    counts.merge(kind, 1, Integer::sum);
  }

  private String stack(Frame[] stack) {
    StringBuilder addresses = new StringBuilder();
    StringBuilder names = new StringBuilder();
    for (Frame f : stack) {
      addresses.append(Long.toHexString(f.address())).append(' ');
      names.append(f.symbol()).append(" (").append(f.dso()).append(")|");
    }
    symbols.add(names.toString());
    return "[" + stack.length + ": " + addresses.toString().strip() + "]";
  }

  @Override
  public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
      long period, Frame[] stack) {
    add("sample", timeNs + " " + cpu + " " + pid + "/" + tid + " " + comm + " " + event + " "
        + period + " " + stack(stack));
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
      String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
    add("switch", timeNs + " " + cpu + " " + period + " " + prevPid + "/" + prevTid + " "
        + prevComm + " " + prevState + " ==> " + nextTid + " " + nextComm + " "
        + stack(prevStack));
  }

  @Override
  public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
      boolean preempt) {
    add("cswitch", timeNs + " " + cpu + " " + pid + "/" + tid + " " + comm + " " + in + " "
        + preempt);
  }

  @Override
  public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid,
      String comm, int targetCpu) {
    add("wakeup", timeNs + " " + cpu + " " + wakerPid + "/" + wakerTid + " " + tid + " " + comm
        + " " + targetCpu);
  }

  @Override
  public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
    add("comm", timeNs + " " + cpu + " " + pid + "/" + tid + " " + comm + " " + exec);
  }

  @Override
  public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
    add("fork", timeNs + " " + pid + "/" + tid + " " + parentPid + "/" + parentTid);
  }

  @Override
  public void exit(long timeNs, int pid, int tid) {
    add("exit", timeNs + " " + pid + "/" + tid);
  }

  @Override
  public void lost(long timeNs, long count) {
    add("lost", timeNs + " " + count);
  }

  /** Leaves out the losses without a time (perf record's LOST_SAMPLES totals). */
  void dropUndatedLosses() {
    int before = calls.size();
    calls.removeIf(call -> call.startsWith("lost ") && Long.parseLong(call.split(" ")[1]) <= 0);
    int dropped = before - calls.size();
    if (dropped > 0) {
      counts.merge("lost", -dropped, Integer::sum);
      counts.remove("lost", 0);
    }
  }

  @Override
  public void ignored(String event) {
    add("ignored", event);
  }

  @Override
  public void malformed(long lineNumber, String reason, String line) {
    add("malformed", reason + " " + line);
  }
}
