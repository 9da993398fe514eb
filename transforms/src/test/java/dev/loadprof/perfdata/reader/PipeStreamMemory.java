package dev.loadprof.perfdata.reader;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.perfdata.symbols.SymbolSources;
import java.io.IOException;

/**
 * bench/pipe-memory.sh's reader alone: a pipe-mode perf.data stream on stdin read natively into
 * a sink that only counts, in whatever heap the JVM is given. A stream many times the heap that
 * reads to its end shows the reader holds a fixed buffer and the records between two rounds,
 * never the stream.
 */
public final class PipeStreamMemory {
  private PipeStreamMemory() {}

  public static void main(String[] args) throws IOException {
    long[] counts = new long[3];
    TraceEventSink counting = new TraceEventSink() {
      @Override
      public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
          long period, Frame[] stack) {
        counts[0]++;
      }

      @Override
      public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
          String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
        counts[1]++;
      }

      @Override
      public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
          boolean preempt) {}

      @Override
      public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid,
          String comm, int targetCpu) {}

      @Override
      public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {}

      @Override
      public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {}

      @Override
      public void exit(long timeNs, int pid, int tid) {}

      @Override
      public void lost(long timeNs, long count) {}

      @Override
      public void ignored(String event) {}

      @Override
      public void malformed(long lineNumber, String reason, String line) {
        counts[2]++;
      }
    };
    NativePerfDataReader reader = NativePerfDataReader.open(System.in, "-", SymbolSources.live());
    reader.read(counting);
    Runtime rt = Runtime.getRuntime();
    System.out.printf("records %d, samples %d, sched_switch %d, damaged %d; heap max %d MiB,"
        + " used at the end %d MiB%n", reader.records(), counts[0], counts[1], counts[2],
        rt.maxMemory() >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20);
  }
}
