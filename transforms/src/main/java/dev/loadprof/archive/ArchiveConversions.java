package dev.loadprof.archive;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.block.UnusablePolicy;
import dev.loadprof.codec.SharedStrings;
import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.StackTable;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.CpuStateKind;
import dev.loadprof.schemas.CpuStateRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.LossTimelineRecord;
import dev.loadprof.schemas.RunManifestRecord;
import dev.loadprof.schemas.ThreadForkRecord;
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
   * 2 added the night/host index and the manifest's night and job_id; 3, checksums of manifests
   * (in the Avro file's metadata) and index entries (their content); formats 1 and 2 still read,
   * unchecked.
   */
  public static final int FORMAT_VERSION = 3;
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
    EventBlockRecord r = new EventBlockRecord();
    r.setRunId(b.runId);
    r.setCpu(b.cpu);
    r.setWindow(b.window);
    r.setWindowStartNs(b.windowStartNs);
    r.setWindowEndNs(b.windowEndNs);
    r.setRunStartNs(b.runStartNs);
    r.setRunEndNs(b.runEndNs);
    r.setCpuTail(b.cpuTail);
    r.setSampleIntervalNs(b.sampleIntervalNs);
    r.setPeriodIsNanoseconds(b.periodIsNanoseconds);
    r.setCarryIn(toRecord(b.carryIn));
    b.samples.toRecord(r, b.windowStartNs);
    b.switches.toRecord(r, b.windowStartNs);
    b.wakeups.toRecord(r, b.windowStartNs);
    b.stackTable.toRecord(r);
    r.setHealth(new HashMap<>(b.health));
    return r;
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
    b.samples.fromRecord(r, b.windowStartNs);
    b.switches.fromRecord(r, b.windowStartNs);
    b.wakeups.fromRecord(r, b.windowStartNs);
    b.stackTable = StackTable.fromRecord(r);
    for (int i = 0; i < b.samples.count; i++) {
      int stack = b.samples.stack[i];
      if (stack < 0 || stack >= b.stackTable.stacks.length) {
        throw new IllegalArgumentException("sample stack index " + stack
            + " is outside the " + b.stackTable.stacks.length + " stacks of the block");
      }
    }
    for (int i = 0; i < b.switches.count; i++) {
      int stack = b.switches.prevStack[i];
      if (stack != TraceEventSink.UNKNOWN_ID && (stack < 0 || stack >= b.stackTable.stacks.length)) {
        throw new IllegalArgumentException("switch-out stack index " + stack
            + " is outside the " + b.stackTable.stacks.length + " stacks of the block");
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
        s.lastEvidenceNs, tids, times, s.lastTickNs);
  }

  private static CpuState fromRecord(CpuStateRecord r) {
    CpuState s = new CpuState();
    s.kind = CpuState.Kind.valueOf(r.getKind().name());
    s.tid = r.getTid();
    s.pid = r.getPid();
    s.sinceNs = r.getSinceNs();
    s.lastEvidenceNs = r.getLastEvidenceNs();
    s.lastTickNs = r.getLastTickNs();
    s.wakeTids = r.getWakeTids().stream().mapToInt(Integer::intValue).toArray();
    s.wakeTimes = r.getWakeTimes().stream().mapToLong(Long::longValue).toArray();
    if (s.wakeTids.length != s.wakeTimes.length) {
      throw new IllegalArgumentException("carry_in has " + s.wakeTids.length + " wake tids but "
          + s.wakeTimes.length + " wake times");
    }
    return s;
  }

  // ---------------------------------------------------------------- runs

  private static List<ThreadForkRecord> forkRecords(Map<Integer, long[]> forks) {
    List<ThreadForkRecord> out = new ArrayList<>();
    forks.forEach((tid, f) -> out.add(new ThreadForkRecord(tid, f[0], (int) f[1])));
    return out;
  }

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
        .setCapturedOn(run.capturedOn)
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
        .setBuildIds(new HashMap<>(run.buildIds))
        .setBlocksVersion(BlockBuilder.BLOCKS_VERSION)
        .setSubjectPid(run.subjectPid)
        .setSubjectPids(new ArrayList<>(run.subjectPids))
        .setLossTimeline(lossRecord(run.losses))
        .setThreadForks(forkRecords(run.threadForks))
        .setHealth(new HashMap<>(run.health.counters()))
        .setMalformedExamples(new ArrayList<>(run.health.malformedExamples()))
        .setWarnings(new ArrayList<>(run.warnings))
        .setBlockCount(storage.blockCount())
        .setBlockFiles(new ArrayList<>(storage.blockFiles()))
        .setNight(storage.night())
        .setJobId(storage.jobId())
        .build();
  }

  private static LossTimelineRecord lossRecord(LossTimeline t) {
    long[][] losses = t.losses();
    return LossTimelineRecord.newBuilder()
        .setBucketNs(t.bucketNs())
        .setFirstBucket(t.firstBucket())
        .setRecordCounts(longs(t.counts()))
        .setLossFromNs(longs(losses[0]))
        .setLossToNs(longs(losses[1]))
        .setLossCounts(longs(losses[2]))
        .setUndatedLosses(t.undated())
        .build();
  }

  private static LossTimeline lossTimeline(LossTimelineRecord r) {
    return LossTimeline.of(r.getBucketNs(), r.getFirstBucket(), unbox(r.getRecordCounts()),
        unbox(r.getLossFromNs()), unbox(r.getLossToNs()), unbox(r.getLossCounts()),
        r.getUndatedLosses());
  }

  private static List<Long> longs(long[] values) {
    List<Long> out = new ArrayList<>(values.length);
    for (long v : values) {
      out.add(v);
    }
    return out;
  }

  private static long[] unbox(List<Long> values) {
    long[] out = new long[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.get(i);
    }
    return out;
  }

  /**
   * The RunInfo a manifest stands for, exactly as the parser produced it, and what may be off if
   * an older loadprof built its blocks.
   */
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
    run.capturedOn = m.getCapturedOn();
    run.samplingEvent = m.getSamplingEvent();
    run.periodIsNanoseconds = m.getPeriodIsNs();
    run.sampleIntervalNs = m.getSampleIntervalNs();
    run.layout = m.getLayout();
    run.pidSource = m.getPidSource();
    run.cpuCount = m.getCpuCount();
    run.startNs = m.getStartNs();
    run.endNs = m.getEndNs();
    // The names every run repeats held once (a nightly holds thousands of runs: SharedStrings).
    m.getProcessNames().forEach((pid, name) -> run.processNames.put(Integer.parseInt(pid),
        SharedStrings.of(name)));
    m.getBuildIds().forEach((file, id) -> run.buildIds.put(file, id));
    run.subjectPid = m.getSubjectPid();
    run.subjectPids.addAll(m.getSubjectPids());
    if (m.getLossTimeline() != null) {
      run.losses = lossTimeline(m.getLossTimeline());
    }
    for (ThreadForkRecord f : m.getThreadForks()) {
      run.threadForks.put(f.getTid(), new long[] {f.getTimeNs(), f.getParentTid()});
    }
    // Sorted, as TraceHealth keeps them; zero counters were never stored.
    new TreeMap<>(m.getHealth()).forEach((counter, n) -> run.health.add(SharedStrings.of(counter),
        n));
    m.getMalformedExamples().forEach(run.health::addMalformedExample);
    run.warnings.addAll(m.getWarnings());
    run.warnings.addAll(ArchiveRules.olderBlocksWarnings(m));
    // Not stored: a per-thread run says so in its health (thread_lanes); every other is per CPU.
    run.lanes = run.health.get(TraceHealth.THREAD_LANES) > 0 ? "thread" : "cpu";
    // Not stored: the verdict follows from the facts above, the same way as when parsing.
    run.unusableReason = UnusablePolicy.reasonOf(run);
    return run;
  }
}
