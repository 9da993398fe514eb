package dev.loadprof.report;

import dev.loadprof.codec.Varint;
import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadTimeline;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.ThreadStateSummary;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes kept parts ({@link PartCodec}) and what their holder keeps beside them, with one
 * table of their strings.
 */
public final class PartWriter {
  private final Varint.Sink sink = new Varint.Sink(4096);
  private final Map<String, Integer> ids = new HashMap<>();

  /** The bytes written. */
  public byte[] bytes() {
    ByteBuffer b = sink.toByteBuffer();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  public void writeInt(int v) {
    sink.writeInt(v);
  }

  public void writeLong(long v) {
    sink.writeLong(v);
  }

  public void writeBoolean(boolean v) {
    sink.writeBoolean(v);
  }

  public void writeDouble(double v) {
    sink.writeLong(Double.doubleToRawLongBits(v));
  }

  /** A string by the table: 0 null, 1 a new one (then its UTF-8), k the (k-2)th written. */
  public void writeString(String s) {
    if (s == null) {
      sink.writeInt(0);
      return;
    }
    Integer id = ids.get(s);
    if (id != null) {
      sink.writeInt(id + 2);
      return;
    }
    ids.put(s, ids.size());
    sink.writeInt(1);
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    sink.writeInt(utf8.length);
    sink.writeBytes(utf8, utf8.length);
  }

  public void writeDoubles(double[] a) {
    if (a == null) {
      sink.writeInt(-1);
      return;
    }
    sink.writeInt(a.length);
    for (double v : a) {
      writeDouble(v);
    }
  }

  public void writeLongs(long[] a) {
    if (a == null) {
      sink.writeInt(-1);
      return;
    }
    sink.writeInt(a.length);
    sink.writeLongs(a, a.length);
  }

  private void writeBytes(byte[] b) {
    sink.writeInt(b.length);
    sink.writeBytes(b, b.length);
  }

  /**
   * Writes the part and returns null; else what is not of a part's shape (with some of it
   * written: the bytes are then not to be used).
   */
  public String part(RunAnalyses.Part p) {
    if (p.filteredOut == null || !p.filteredOut.isEmpty()) {
      return "processes filtered out";
    }
    if (PartCodec.listKind(p.runs) < 0 || PartCodec.listKind(p.processes) < 0) {
      return "its lists";
    }
    writeInt(PartCodec.listKind(p.runs));
    writeInt(p.runs.size());
    for (RunInfo r : p.runs) {
      if (!run(r)) {
        return "run " + r.runId + "'s collections";
      }
    }
    writeInt(PartCodec.listKind(p.processes));
    writeInt(p.processes.size());
    for (ProcessLoad process : p.processes) {
      String not = process(process);
      if (not != null) {
        return "process " + process.pid + " of run " + process.runId + ": " + not;
      }
    }
    return null;
  }

  private boolean run(RunInfo r) {
    if (r.processNames.getClass() != TreeMap.class || r.subjectPids.getClass() != TreeSet.class
        || r.threadForks.getClass() != TreeMap.class || r.buildIds.getClass() != TreeMap.class
        || PartCodec.listKind(r.warnings) < 0 || r.unusedEvents.getClass() != TreeMap.class
        || r.health == null || r.losses == null || r.processNames.comparator() != null
        || r.subjectPids.comparator() != null || r.threadForks.comparator() != null
        || r.buildIds.comparator() != null || r.unusedEvents.comparator() != null) {
      return false;
    }
    writeString(r.runId);
    writeString(r.source);
    writeString(r.host);
    writeString(r.capturedOn);
    writeString(r.night);
    writeString(r.nightDoubt);
    writeString(r.samplingEvent);
    writeBoolean(r.periodIsNanoseconds);
    writeLong(r.sampleIntervalNs);
    writeString(r.layout);
    writeString(r.pidSource);
    writeInt(r.cpuCount);
    writeString(r.lanes);
    writeLong(r.startNs);
    writeLong(r.endNs);
    writeInt(r.processNames.size());
    r.processNames.forEach((pid, name) -> {
      writeInt(pid);
      writeString(name);
    });
    writeInt(r.subjectPid);
    writeInt(r.subjectPids.size());
    r.subjectPids.forEach(this::writeInt);
    writeInt(r.threadForks.size());
    r.threadForks.forEach((tid, fork) -> {
      writeInt(tid);
      writeLongs(fork);
    });
    writeInt(r.buildIds.size());
    r.buildIds.forEach((file, id) -> {
      writeString(file);
      writeString(id);
    });
    health(r.health.counters(), r.health.malformedExamples());
    losses(r.losses);
    writeInt(PartCodec.listKind(r.warnings));
    writeInt(r.warnings.size());
    r.warnings.forEach(this::writeString);
    writeString(r.unusableReason);
    writeString(r.requestedEvent);
    writeCounts(r.unusedEvents);
    return true;
  }

  /** Counts by name, in the map's order (read back into a sorted map: PartReader). */
  private void writeCounts(Map<String, Long> counts) {
    writeInt(counts.size());
    counts.forEach((name, n) -> {
      writeString(name);
      writeLong(n);
    });
  }

  private void health(Map<String, Long> counters, List<String> examples) {
    writeCounts(counters);
    writeInt(examples.size());
    examples.forEach(this::writeString);
  }

  private void losses(LossTimeline t) {
    writeLong(t.bucketNs());
    writeLong(t.firstBucket());
    long[] counts = t.counts();
    ByteBuffer packed = dev.loadprof.codec.ColumnBytes.longs(counts, counts.length);
    byte[] varints = new byte[packed.remaining()];
    packed.get(varints);
    writeInt(counts.length);
    writeBytes(varints);
    long[][] losses = t.losses();
    writeLongs(losses[0]);
    writeLongs(losses[1]);
    writeLongs(losses[2]);
    writeLong(t.undated());
  }

  private String process(ProcessLoad p) {
    if (p.health == null || p.health.getClass() != TreeMap.class
        || p.health.comparator() != null) {
      return "its health";
    }
    if (p.stateTimeline != null) {
      return "its thread-state lanes";
    }
    if (p.timeline != null && !emptyTimeline(p.timeline)) {
      return "its load timeline's buckets";
    }
    writeString(p.runId);
    writeInt(p.pid);
    writeString(p.comm);
    writeLong(p.samples);
    writeLong(p.cpuNs);
    writeLongs(p.samplesAtLoad);
    writeLongs(p.cpuNsAtLoad);
    writeLongs(p.timeAtLoadNs);
    writeLong(p.spanStartNs);
    writeLong(p.spanEndNs);
    writeCounts(p.health);
    writeBoolean(p.timeline != null);
    ThreadStateSummary s = p.threadStates;
    writeBoolean(s != null);
    if (s != null && !states(s)) {
      return "its waits by stack";
    }
    writeBoolean(p.criticalPath != null);
    if (p.criticalPath != null) {
      writeBytes(CriticalPath.encoded(p.criticalPath));
    }
    return null;
  }

  private static boolean emptyTimeline(LoadTimeline t) {
    return t.level == 0 && t.minBaseIndex == Long.MAX_VALUE && t.maxBaseIndex == Long.MIN_VALUE
        && t.buckets != null && t.buckets.getClass() == TreeMap.class && t.buckets.isEmpty()
        && t.buckets.comparator() == null;
  }

  private boolean states(ThreadStateSummary s) {
    if (s.runnableByPid == null || s.runnableByPid.getClass() != HashMap.class
        || s.waits == null || s.waits.getClass() != HashMap.class || !s.waits.isEmpty()
        || s.load0ByCause == null || s.load0ByCause.getClass() != HashMap.class
        || !s.load0ByCause.isEmpty()) {
      return false;
    }
    writeLong(s.spanNs);
    writeLong(s.onCpuRealNs);
    writeLong(s.load0Ns);
    writeDoubles(s.byStateNs);
    writeDouble(s.runnableOwnNs);
    writeDouble(s.runnableOtherNs);
    writeDouble(s.runnableUnattributedNs);
    writeInt(s.runnableByPid.size());
    s.runnableByPid.forEach((pid, ns) -> { // in its order, which is read back
      writeInt(pid);
      writeDouble(ns);
    });
    writeDouble(s.cpuWaitNs);
    writeDouble(s.cpuWaitOnCpuNs);
    writeDouble(s.cpuWaitOthersNs);
    writeDouble(s.cpuWaitOthersOnCpuNs);
    writeDouble(s.unfinishedNs);
    writeDoubles(s.load0ByStateNs);
    writeDouble(s.load0UnattributedNs);
    writeBoolean(s.hasStates);
    writeBoolean(s.hasStacks);
    return true;
  }
}
