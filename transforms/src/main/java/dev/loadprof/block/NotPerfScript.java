package dev.loadprof.block;

import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Tells, before any pipeline is built, that a local trace holds no perf sample and no switch
 * record at all (it is not perf script output), so that the CLI can reject it at once. It reads
 * the file with the parse step's own parser and block builder, so the verdict and its counts are
 * the ones the job would give; it stops at the first sample or switch record, so a real trace
 * costs only its first lines. Anything it cannot decide cheaply is left to the job.
 */
public final class NotPerfScript {
  /** Larger files are left to the job, which reads them with progress lines. */
  static final long MAX_FILE_BYTES = 64L << 20;
  /** Parser callbacks read at most (lines of garbage, comm or fork records, ...). */
  static final long MAX_EVENTS = 1_000_000;

  private NotPerfScript() {}

  /**
   * The run's info, with the verdict "no perf samples or sched_switch records found", if
   * {@code file} is text (plain or compressed) without a single sample or switch record; empty
   * if it has one, is perf.data, is larger than {@link #MAX_FILE_BYTES}, or cannot be read here.
   */
  public static Optional<RunInfo> check(Path file, String runId, String source, long windowNs) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
        return Optional.empty();
      }
      BlockBuilder builder = new BlockBuilder(runId, source, windowNs, null, block -> { });
      PerfScriptParser parser = new PerfScriptParser();
      try (InputStream text = TraceFiles.open(file)) {
        if (TraceFiles.isPerfData(text)) {
          return Optional.empty();
        }
        parser.read(text, source, new UntilFirstRecord(builder));
      }
      RunInfo info = builder.finish();
      parser.describeRun(info);
      boolean noRecord = info.health.get(TraceHealth.SAMPLE_RECORDS) == 0
          && info.health.get(TraceHealth.SWITCH_RECORDS) == 0;
      return noRecord && info.isUnusable() ? Optional.of(info) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // a record seen, damage, or too long: the job reads it as usual
    }
  }

  /** Passes events on, and stops the read at the first sample or switch or after too many. */
  private static final class UntilFirstRecord implements TraceEventSink {
    private final TraceEventSink next;
    private long events;

    UntilFirstRecord(TraceEventSink next) {
      this.next = next;
    }

    private void count() {
      if (++events > MAX_EVENTS) {
        throw new Stop();
      }
    }

    @Override
    public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
        long period, Frame[] stack) {
      throw new Stop();
    }

    @Override
    public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
        String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
      throw new Stop();
    }

    @Override
    public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
        boolean preempt) {
      throw new Stop();
    }

    @Override
    public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid,
        String comm, int targetCpu) {
      count();
      next.schedWakeup(timeNs, cpu, wakerPid, wakerTid, tid, comm, targetCpu);
    }

    @Override
    public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {
      count();
      next.comm(timeNs, cpu, pid, tid, comm, exec);
    }

    @Override
    public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {
      count();
      next.fork(timeNs, pid, tid, parentPid, parentTid);
    }

    @Override
    public void exit(long timeNs, int pid, int tid) {
      count();
      next.exit(timeNs, pid, tid);
    }

    @Override
    public void lost(long timeNs, long count) {
      count();
      next.lost(timeNs, count);
    }

    @Override
    public void ignored(String event) {
      count();
      next.ignored(event);
    }

    @Override
    public void malformed(long lineNumber, String reason, String line) {
      count();
      next.malformed(lineNumber, reason, line);
    }
  }

  /** Ends the read early; carries no stack trace. */
  private static final class Stop extends RuntimeException {
    Stop() {
      super(null, null, false, false);
    }
  }
}
