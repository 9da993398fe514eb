package dev.loadprof.report;

import dev.loadprof.codec.Varint;
import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.LoadTimeline;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.ThreadStateSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads what {@link PartWriter} wrote ({@link PartCodec}). */
public final class PartReader {
  private final Varint.Source source;
  private final List<String> strings = new ArrayList<>();

  public PartReader(byte[] bytes) {
    source = new Varint.Source(bytes);
  }

  /** Whether every byte was read. */
  public boolean atEnd() {
    return source.remaining() == 0;
  }

  public int readInt() throws IOException {
    return source.readInt();
  }

  public long readLong() throws IOException {
    return source.readLong();
  }

  public boolean readBoolean() throws IOException {
    return source.readBoolean();
  }

  public double readDouble() throws IOException {
    return Double.longBitsToDouble(source.readLong());
  }

  /** A count of things of at least one byte each, checked against the bytes left. */
  public int count() throws IOException {
    int n = source.readInt();
    if (n < 0 || n > source.remaining()) {
      throw new IOException("a count of " + n + " with " + source.remaining() + " bytes left");
    }
    return n;
  }

  public String readString() throws IOException {
    int id = source.readInt();
    if (id == 0) {
      return null;
    }
    if (id == 1) {
      // shared with every other run's (thousands are held at once: SharedStrings)
      String s = dev.loadprof.codec.SharedStrings.of(
          new String(source.readBytes(count()), StandardCharsets.UTF_8));
      strings.add(s);
      return s;
    }
    if (id < 0 || id - 2 >= strings.size()) {
      throw new IOException("string " + (id - 2) + " of " + strings.size());
    }
    return strings.get(id - 2);
  }

  /** A count as {@link #count}, or -1 for none (an array written as null). */
  private int countOrNone() throws IOException {
    int n = source.readInt();
    if (n != -1 && (n < 0 || n > source.remaining())) {
      throw new IOException("a count of " + n + " with " + source.remaining() + " bytes left");
    }
    return n;
  }

  public double[] readDoubles() throws IOException {
    int n = countOrNone();
    if (n == -1) {
      return null;
    }
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = readDouble();
    }
    return a;
  }

  public long[] readLongs() throws IOException {
    int n = countOrNone();
    return n == -1 ? null : source.readLongs(n);
  }

  private byte[] readBytes() throws IOException {
    return source.readBytes(count());
  }

  /** A part as {@link PartWriter#part} wrote it. */
  public RunAnalyses.Part part() throws IOException {
    int kind = listKind();
    int n = count();
    List<RunInfo> runs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      runs.add(run());
    }
    runs = asWritten(runs, kind);
    kind = listKind();
    n = count();
    List<ProcessLoad> processes = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      processes.add(process());
    }
    return new RunAnalyses.Part(runs, asWritten(processes, kind), new FilteredOutProcesses());
  }

  private int listKind() throws IOException {
    int kind = readInt();
    if (kind != 0 && kind != 1) {
      throw new IOException("a list of kind " + kind);
    }
    return kind;
  }

  private static <T> List<T> asWritten(List<T> read, int kind) {
    return kind == 1 ? List.copyOf(read) : read;
  }

  private RunInfo run() throws IOException {
    RunInfo r = new RunInfo();
    r.runId = readString();
    r.source = readString();
    r.host = readString();
    r.capturedOn = readString();
    r.night = readString();
    r.nightDoubt = readString();
    r.samplingEvent = readString();
    r.periodIsNanoseconds = readBoolean();
    r.sampleIntervalNs = readLong();
    r.layout = readString();
    r.pidSource = readString();
    r.cpuCount = readInt();
    r.lanes = readString();
    r.startNs = readLong();
    r.endNs = readLong();
    for (int i = count(); i > 0; i--) {
      r.processNames.put(readInt(), readString());
    }
    r.subjectPid = readInt();
    for (int i = count(); i > 0; i--) {
      r.subjectPids.add(readInt());
    }
    for (int i = count(); i > 0; i--) {
      r.threadForks.put(readInt(), readLongs());
    }
    for (int i = count(); i > 0; i--) {
      r.buildIds.put(readString(), readString());
    }
    r.health = health();
    r.losses = losses();
    int kind = listKind();
    for (int i = count(); i > 0; i--) {
      r.warnings.add(readString());
    }
    r.warnings = asWritten(r.warnings, kind);
    r.unusableReason = readString();
    r.requestedEvent = readString();
    readCounts(r.unusedEvents);
    return r;
  }

  /** Counts by name as PartWriter wrote them, put into {@code into}. */
  private <M extends Map<String, Long>> M readCounts(M into) throws IOException {
    for (int i = count(); i > 0; i--) {
      into.put(readString(), readLong());
    }
    return into;
  }

  private TraceHealth health() throws IOException {
    Map<String, Long> counters = readCounts(new TreeMap<>());
    List<String> examples = new ArrayList<>();
    for (int i = count(); i > 0; i--) {
      examples.add(readString());
    }
    return TraceHealth.of(counters, examples);
  }

  private LossTimeline losses() throws IOException {
    long bucketNs = readLong();
    long firstBucket = readLong();
    int n = readInt();
    byte[] counts = readBytes();
    long[] from = readLongs();
    long[] to = readLongs();
    long[] count = readLongs();
    long undated = readLong();
    if (from == null || to == null || count == null || from.length != count.length
        || to.length != count.length) {
      throw new IOException("a loss timeline's losses do not pair up");
    }
    try {
      return LossTimeline.ofPacked(bucketNs, firstBucket, counts, n, from, to, count, undated);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private ProcessLoad process() throws IOException {
    ProcessLoad p = new ProcessLoad();
    p.runId = readString();
    p.pid = readInt();
    p.comm = readString();
    p.samples = readLong();
    p.cpuNs = readLong();
    p.samplesAtLoad = readLongs();
    p.cpuNsAtLoad = readLongs();
    p.timeAtLoadNs = readLongs();
    p.spanStartNs = readLong();
    p.spanEndNs = readLong();
    p.health = readCounts(new TreeMap<>());
    p.timeline = readBoolean() ? new LoadTimeline() : null;
    p.threadStates = readBoolean() ? states() : null;
    p.stateTimeline = null;
    p.criticalPath = readBoolean() ? CriticalPath.decoded(readBytes()) : null;
    return p;
  }

  private ThreadStateSummary states() throws IOException {
    ThreadStateSummary s = new ThreadStateSummary();
    s.spanNs = readLong();
    s.onCpuRealNs = readLong();
    s.load0Ns = readLong();
    s.byStateNs = readDoubles();
    s.runnableOwnNs = readDouble();
    s.runnableOtherNs = readDouble();
    s.runnableUnattributedNs = readDouble();
    int n = count();
    Map<Integer, Double> byPid = PartCodec.asJavaReadsBack(n);
    for (int i = 0; i < n; i++) {
      byPid.put(readInt(), readDouble());
    }
    s.runnableByPid = byPid;
    s.cpuWaitNs = readDouble();
    s.cpuWaitOnCpuNs = readDouble();
    s.cpuWaitOthersNs = readDouble();
    s.cpuWaitOthersOnCpuNs = readDouble();
    s.unfinishedNs = readDouble();
    s.waits = new HashMap<>();
    s.load0ByCause = new HashMap<>();
    s.load0ByStateNs = readDoubles();
    s.load0UnattributedNs = readDouble();
    s.hasStates = readBoolean();
    s.hasStacks = readBoolean();
    return s;
  }
}
