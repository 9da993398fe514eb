package dev.loadprof.archive;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.CpuStateKind;
import dev.loadprof.schemas.CpuStateRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.FrameRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts between the pipeline's model ({@link EventBlock}, {@link RunInfo}) and the archive's
 * Avro records. The round trip is exact: a block read back encodes to the same bytes with
 * {@code EventBlockCoder} as the block that was written, so analyzing an archive gives the same
 * outputs as analyzing the trace.
 */
public final class ArchiveConversions {
  /**
   * Version of the archive schemas and layout written now; see RunManifestRecord.format_version.
   * 2 added the night/host index and the manifest's night and job_id; format 1 still reads.
   */
  public static final int FORMAT_VERSION = 2;
  /** The oldest format this loadprof reads. */
  public static final int OLDEST_READABLE_FORMAT = 1;

  private ArchiveConversions() {}

  // ---------------------------------------------------------------- blocks

  /** The archive record of a block as the parser made it (before interval building). */
  public static EventBlockRecord toRecord(EventBlock b) {
    if (b.intervals != null || b.sampleFlags != null) {
      // Intervals are derived data; storing them would tie the archive to one version of the
      // interval builder.
      throw new IllegalArgumentException("only blocks straight from the parser are archived: " + b);
    }
    int n = b.sampleCount;
    int s = b.switchCount;
    int w = b.wakeupCount;
    List<FrameRecord> frames = new ArrayList<>(b.frames.length);
    for (Frame f : b.frames) {
      frames.add(new FrameRecord(f.symbol(), f.dso()));
    }
    // The stack table as two flat columns: each stack's length, then all frame ids in a row.
    int[] lengths = new int[b.stacks.length];
    int total = 0;
    for (int i = 0; i < b.stacks.length; i++) {
      lengths[i] = b.stacks[i].length;
      total += lengths[i];
    }
    int[] frameIds = new int[total];
    int at = 0;
    for (int[] stack : b.stacks) {
      System.arraycopy(stack, 0, frameIds, at, stack.length);
      at += stack.length;
    }
    return EventBlockRecord.newBuilder()
        .setRunId(b.runId)
        .setCpu(b.cpu)
        .setWindow(b.window)
        .setWindowStartNs(b.windowStartNs)
        .setWindowEndNs(b.windowEndNs)
        .setRunStartNs(b.runStartNs)
        .setRunEndNs(b.runEndNs)
        .setCpuTail(b.cpuTail)
        .setSampleIntervalNs(b.sampleIntervalNs)
        .setPeriodIsNanoseconds(b.periodIsNanoseconds)
        .setCarryIn(toRecord(b.carryIn))
        .setSampleCount(n)
        .setSampleTime(ColumnBytes.deltas(b.sampleTime, n, b.windowStartNs))
        .setSampleTid(ColumnBytes.ints(b.sampleTid, n))
        .setSamplePid(ColumnBytes.ints(b.samplePid, n))
        .setSamplePeriod(ColumnBytes.longs(b.samplePeriod, n))
        .setSampleStack(ColumnBytes.ints(b.sampleStack, n))
        .setSwitchCount(s)
        .setSwitchTime(ColumnBytes.deltas(b.switchTime, s, b.windowStartNs))
        .setSwitchPrevTid(ColumnBytes.ints(b.switchPrevTid, s))
        .setSwitchPrevPid(ColumnBytes.ints(b.switchPrevPid, s))
        .setSwitchNextTid(ColumnBytes.ints(b.switchNextTid, s))
        .setSwitchNextPid(ColumnBytes.ints(b.switchNextPid, s))
        .setWakeupCount(w)
        .setWakeupTime(ColumnBytes.deltas(b.wakeupTime, w, b.windowStartNs))
        .setWakeupTid(ColumnBytes.ints(b.wakeupTid, w))
        .setFrames(frames)
        .setStackCount(b.stacks.length)
        .setStackLengths(ColumnBytes.ints(lengths, lengths.length))
        .setStackFrames(ColumnBytes.ints(frameIds, total))
        .setHealth(new HashMap<>(b.health))
        .build();
  }

  /**
   * The block an archive record stands for.
   *
   * @throws IllegalArgumentException when the record's columns do not agree with its counts
   */
  public static EventBlock fromRecord(EventBlockRecord r) {
    EventBlock b = new EventBlock();
    b.runId = r.getRunId();
    b.cpu = r.getCpu();
    b.window = r.getWindow();
    b.windowStartNs = r.getWindowStartNs();
    b.windowEndNs = r.getWindowEndNs();
    b.runStartNs = r.getRunStartNs();
    b.runEndNs = r.getRunEndNs();
    b.cpuTail = r.getCpuTail();
    b.sampleIntervalNs = r.getSampleIntervalNs();
    b.periodIsNanoseconds = r.getPeriodIsNanoseconds();
    b.carryIn = fromRecord(r.getCarryIn());

    int n = r.getSampleCount();
    b.sampleCount = n;
    b.sampleTime = ColumnBytes.readDeltas(r.getSampleTime(), n, b.windowStartNs, "sample_time");
    b.sampleTid = ColumnBytes.readInts(r.getSampleTid(), n, "sample_tid");
    b.samplePid = ColumnBytes.readInts(r.getSamplePid(), n, "sample_pid");
    b.samplePeriod = ColumnBytes.readLongs(r.getSamplePeriod(), n, "sample_period");
    b.sampleStack = ColumnBytes.readInts(r.getSampleStack(), n, "sample_stack");

    int s = r.getSwitchCount();
    b.switchCount = s;
    b.switchTime = ColumnBytes.readDeltas(r.getSwitchTime(), s, b.windowStartNs, "switch_time");
    b.switchPrevTid = ColumnBytes.readInts(r.getSwitchPrevTid(), s, "switch_prev_tid");
    b.switchPrevPid = ColumnBytes.readInts(r.getSwitchPrevPid(), s, "switch_prev_pid");
    b.switchNextTid = ColumnBytes.readInts(r.getSwitchNextTid(), s, "switch_next_tid");
    b.switchNextPid = ColumnBytes.readInts(r.getSwitchNextPid(), s, "switch_next_pid");

    int w = r.getWakeupCount();
    b.wakeupCount = w;
    b.wakeupTime = ColumnBytes.readDeltas(r.getWakeupTime(), w, b.windowStartNs, "wakeup_time");
    b.wakeupTid = ColumnBytes.readInts(r.getWakeupTid(), w, "wakeup_tid");

    List<FrameRecord> frames = r.getFrames();
    b.frames = new Frame[frames.size()];
    for (int i = 0; i < b.frames.length; i++) {
      b.frames[i] = new Frame(frames.get(i).getSymbol(), frames.get(i).getDso());
    }
    int[] lengths = ColumnBytes.readInts(r.getStackLengths(), r.getStackCount(), "stack_lengths");
    long total = 0;
    for (int length : lengths) {
      if (length < 0) {
        throw new IllegalArgumentException("column stack_lengths holds " + length);
      }
      total += length;
    }
    int[] frameIds = ColumnBytes.readInts(r.getStackFrames(), (int) Math.min(total,
        Integer.MAX_VALUE), "stack_frames");
    int at = 0;
    b.stacks = new int[lengths.length][];
    for (int i = 0; i < lengths.length; i++) {
      int[] stack = new int[lengths[i]];
      for (int k = 0; k < stack.length; k++) {
        stack[k] = frameIds[at++];
        if (stack[k] < 0 || stack[k] >= b.frames.length) {
          throw new IllegalArgumentException("stack frame index " + stack[k] + " is outside the "
              + b.frames.length + " frames of the block");
        }
      }
      b.stacks[i] = stack;
    }
    for (int i = 0; i < n; i++) {
      if (b.sampleStack[i] < 0 || b.sampleStack[i] >= b.stacks.length) {
        throw new IllegalArgumentException("sample stack index " + b.sampleStack[i]
            + " is outside the " + b.stacks.length + " stacks of the block");
      }
    }
    b.health = new TreeMap<>(r.getHealth());
    return b;
  }

  private static CpuStateRecord toRecord(CpuState s) {
    List<Integer> tids = new ArrayList<>(s.wakeTids.length);
    for (int t : s.wakeTids) {
      tids.add(t);
    }
    List<Long> times = new ArrayList<>(s.wakeTimes.length);
    for (long t : s.wakeTimes) {
      times.add(t);
    }
    return new CpuStateRecord(CpuStateKind.valueOf(s.kind.name()), s.tid, s.pid, s.sinceNs,
        s.lastEvidenceNs, tids, times);
  }

  private static CpuState fromRecord(CpuStateRecord r) {
    CpuState s = new CpuState();
    s.kind = CpuState.Kind.valueOf(r.getKind().name());
    s.tid = r.getTid();
    s.pid = r.getPid();
    s.sinceNs = r.getSinceNs();
    s.lastEvidenceNs = r.getLastEvidenceNs();
    s.wakeTids = r.getWakeTids().stream().mapToInt(Integer::intValue).toArray();
    s.wakeTimes = r.getWakeTimes().stream().mapToLong(Long::longValue).toArray();
    if (s.wakeTids.length != s.wakeTimes.length) {
      throw new IllegalArgumentException("carry_in has " + s.wakeTids.length + " wake tids but "
          + s.wakeTimes.length + " wake times");
    }
    return s;
  }

  // ---------------------------------------------------------------- runs

  /** What the archive records of a run besides its RunInfo. */
  public record Storage(String fingerprint, String requestedEvent, long windowNs, long blockCount,
      List<BlockFileRecord> blockFiles, String night, String jobId) {}

  public static RunManifestRecord toManifest(RunInfo run, Storage storage) {
    Map<String, String> names = new HashMap<>();
    run.processNames.forEach((pid, name) -> names.put(Integer.toString(pid), name));
    return RunManifestRecord.newBuilder()
        .setFormatVersion(FORMAT_VERSION)
        .setRunId(run.runId)
        .setSource(run.source)
        .setFingerprint(storage.fingerprint())
        .setHost(run.host)
        .setStartNs(run.startNs)
        .setEndNs(run.endNs)
        .setCpuCount(run.cpuCount)
        .setSamplingEvent(run.samplingEvent)
        .setRequestedEvent(storage.requestedEvent())
        .setPeriodIsNs(run.periodIsNanoseconds)
        .setSampleIntervalNs(run.sampleIntervalNs)
        .setLayout(run.layout)
        .setPidSource(run.pidSource)
        .setWindowNs(storage.windowNs())
        .setProcessNames(names)
        .setHealth(new HashMap<>(run.health.counters()))
        .setMalformedExamples(new ArrayList<>(run.health.malformedExamples()))
        .setWarnings(new ArrayList<>(run.warnings))
        .setBlockCount(storage.blockCount())
        .setBlockFiles(new ArrayList<>(storage.blockFiles()))
        .setNight(storage.night())
        .setJobId(storage.jobId())
        .build();
  }

  /** The RunInfo a manifest stands for, exactly as the parser produced it. */
  public static RunInfo fromManifest(RunManifestRecord m) {
    if (m.getFormatVersion() < OLDEST_READABLE_FORMAT || m.getFormatVersion() > FORMAT_VERSION) {
      throw new IllegalArgumentException("archive format version " + m.getFormatVersion()
          + " is not supported (this loadprof reads versions " + OLDEST_READABLE_FORMAT + " to "
          + FORMAT_VERSION + ")");
    }
    RunInfo run = new RunInfo();
    run.runId = m.getRunId();
    run.source = m.getSource();
    run.host = m.getHost();
    run.samplingEvent = m.getSamplingEvent();
    run.periodIsNanoseconds = m.getPeriodIsNs();
    run.sampleIntervalNs = m.getSampleIntervalNs();
    run.layout = m.getLayout();
    run.pidSource = m.getPidSource();
    run.cpuCount = m.getCpuCount();
    run.startNs = m.getStartNs();
    run.endNs = m.getEndNs();
    m.getProcessNames().forEach((pid, name) -> run.processNames.put(Integer.parseInt(pid), name));
    // Sorted, as TraceHealth keeps them; zero counters were never stored.
    new TreeMap<>(m.getHealth()).forEach(run.health::add);
    m.getMalformedExamples().forEach(run.health::addMalformedExample);
    run.warnings.addAll(m.getWarnings());
    return run;
  }
}
