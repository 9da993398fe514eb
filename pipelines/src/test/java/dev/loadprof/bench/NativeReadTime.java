package dev.loadprof.bench;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.perfdata.reader.NativePerfDataReader;
import dev.loadprof.perfdata.symbols.SymbolSources;
import java.nio.file.Path;

/**
 * The native perf.data reader alone (bench/run.sh native): reads the file, frames symbolized,
 * into a sink that only counts, and prints the time and the counts. One JVM per run, as perf
 * script is one process per run.
 */
public final class NativeReadTime {
  private NativeReadTime() {}

  public static void main(String[] args) throws Exception {
    long start = System.nanoTime();
    Counter counter = new Counter();
    NativePerfDataReader.open(Path.of(args[0]), SymbolSources.live()).read(counter);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("native read %.2f s: %d samples, %d switches, %d frames, %d other%n",
        seconds, counter.samples, counter.switches, counter.frames, counter.other);
  }

  private static final class Counter implements TraceEventSink {
    long samples;
    long switches;
    long frames;
    long other;

    @Override
    public void sample(long t, int cpu, int pid, int tid, String comm, String event, long period,
        Frame[] stack) {
      samples++;
      frames += stack.length;
    }

    @Override
    public void schedSwitch(long t, int cpu, long period, int prevPid, int prevTid,
        String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
      switches++;
      frames += prevStack.length;
    }

    @Override
    public void contextSwitch(long t, int cpu, int pid, int tid, String comm, boolean in,
        boolean preempt) {
      other++;
    }

    @Override
    public void schedWakeup(long t, int cpu, int wakerPid, int wakerTid, int tid, String comm,
        int targetCpu) {
      other++;
    }

    @Override
    public void comm(long t, int cpu, int pid, int tid, String comm, boolean exec) {
      other++;
    }

    @Override
    public void fork(long t, int pid, int tid, int parentPid, int parentTid) {
      other++;
    }

    @Override
    public void exit(long t, int pid, int tid) {
      other++;
    }

    @Override
    public void lost(long t, long count) {
      other++;
    }

    @Override
    public void ignored(String event) {
      other++;
    }

    @Override
    public void malformed(long line, String reason, String text) {
      other++;
    }
  }
}
