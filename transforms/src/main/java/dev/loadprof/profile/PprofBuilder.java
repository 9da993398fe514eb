package dev.loadprof.profile;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

/**
 * Builds a pprof Profile from load-weighted stacks. Values per sample are [samples/count,
 * cpu/nanoseconds, wall/nanoseconds] with wall the default, so stock pprof shows real time. Every
 * sample carries numeric labels load, pid and tid (as perf_data_converter writes pid and tid) and
 * string labels process and run. pprof's -tagfocus reads a value that parses as a number as a
 * numeric range, so ids must be numeric labels for {@code -tagfocus=pid=N} to match.
 *
 * <p>No Mapping is written: pprof prints the first mapping's file as "File:" in every report,
 * which would name an arbitrary library. The dso goes into Function.filename instead, where
 * {@code pprof -filefunctions} shows it, while the default function granularity merges
 * functions by name just like functions.txt does.
 */
public final class PprofBuilder {
  public static final String FILE_NAME = "profile.pb.gz";

  public static final String LABEL_LOAD = "load";
  public static final String LABEL_PID = "pid";
  public static final String LABEL_TID = "tid";
  public static final String LABEL_PROCESS = "process";
  public static final String LABEL_RUN = "run";

  /**
   * perf timestamps are usually seconds since boot, not since the epoch; pprof would print those
   * as a date in 1970. time_nanos is set only when the trace clock is plainly wall-clock time
   * (perf record -k realtime), i.e. after 2000-01-01.
   */
  static final long EPOCH_2000_NS = 946_684_800L * 1_000_000_000L;

  private final List<RunInfo> runs;
  private final List<StackWeight> stacks;
  private final LoadRange loadFilter;
  private final ProcessNames names;

  public PprofBuilder(
      List<RunInfo> runs,
      List<ProcessLoad> processes,
      List<StackWeight> stacks,
      LoadRange loadFilter) {
    this.runs = new ArrayList<>(runs);
    this.runs.sort(Comparator.comparing(r -> r.runId));
    this.stacks = new ArrayList<>(stacks);
    this.stacks.sort(StackOrder.STACKS);
    this.loadFilter = loadFilter;
    this.names = new ProcessNames(runs, processes);
  }

  public Profile build() {
    Index strings = new Index();
    Profile.Builder p = Profile.newBuilder();
    p.addSampleType(valueType(strings, "samples", "count"));
    p.addSampleType(valueType(strings, "cpu", "nanoseconds"));
    p.addSampleType(valueType(strings, "wall", "nanoseconds"));
    p.setDefaultSampleType(strings.id("wall"));

    List<StackWeight> kept = new ArrayList<>();
    for (StackWeight s : stacks) {
      if (loadFilter.contains(s.load())) {
        kept.add(s);
      }
    }

    // Ids in sorted frame order, so that they do not depend on the input order.
    TreeMap<Frame, Long> frameIds = new TreeMap<>(StackOrder.FRAMES);
    for (StackWeight s : kept) {
      for (Frame f : s.stack()) {
        frameIds.put(f, 0L);
      }
    }
    long next = 1;
    for (var e : frameIds.entrySet()) {
      long id = next++;
      e.setValue(id);
      Frame f = e.getKey();
      // One location per frame and one function per frame: the same id serves both.
      p.addFunction(
          Function.newBuilder()
              .setId(id)
              .setName(strings.id(f.symbol()))
              .setSystemName(strings.id(f.symbol()))
              .setFilename(strings.id(f.dso())));
      p.addLocation(
          Location.newBuilder().setId(id).addLine(Line.newBuilder().setFunctionId(id)));
    }

    long loadKey = strings.id(LABEL_LOAD);
    long pidKey = strings.id(LABEL_PID);
    long tidKey = strings.id(LABEL_TID);
    long processKey = strings.id(LABEL_PROCESS);
    long runKey = strings.id(LABEL_RUN);
    for (StackWeight s : kept) {
      Sample.Builder sample = Sample.newBuilder();
      for (Frame f : s.stack()) {
        sample.addLocationId(frameIds.get(f));
      }
      sample.addValue(s.count()).addValue(s.cpuNs()).addValue(s.wallNs());
      sample.addLabel(Label.newBuilder().setKey(loadKey).setNum(s.load()));
      sample.addLabel(Label.newBuilder().setKey(pidKey).setNum(s.pid()));
      if (s.tid() != StackWeight.ALL_THREADS) {
        sample.addLabel(Label.newBuilder().setKey(tidKey).setNum(s.tid()));
      }
      sample.addLabel(
          Label.newBuilder().setKey(processKey).setStr(strings.id(names.comm(s.runId(), s.pid()))));
      sample.addLabel(Label.newBuilder().setKey(runKey).setStr(strings.id(s.runId())));
      p.addSample(sample);
    }

    p.setPeriodType(valueType(strings, "cpu", "nanoseconds"));
    if (!runs.isEmpty()) {
      // Runs normally share one interval; with several, the first run (by id) speaks for all.
      p.setPeriod(runs.get(0).sampleIntervalNs);
      long start = runs.stream().mapToLong(r -> r.startNs).min().getAsLong();
      long end = runs.stream().mapToLong(r -> r.endNs).max().getAsLong();
      if (start >= EPOCH_2000_NS) {
        p.setTimeNanos(start);
      }
      p.setDurationNanos(Math.max(0, end - start));
    }
    for (RunInfo r : runs) {
      p.addComment(
          strings.id(
              "loadprof run " + r.runId + ": source " + r.source + ", event " + r.samplingEvent
                  + (loadFilter.isAll() ? "" : ", load filter " + loadFilter)));
      for (String w : r.warnings) {
        p.addComment(strings.id("warning (" + r.runId + "): " + w));
      }
    }
    p.addAllStringTable(strings.strings());
    return p.build();
  }

  /** Writes the profile gzipped, as pprof expects a .pb.gz. */
  public void writeGzipped(OutputStream out) throws IOException {
    // GZIPOutputStream writes a zero mtime, so equal profiles give equal bytes.
    GZIPOutputStream gz = new GZIPOutputStream(out);
    build().writeTo(gz);
    gz.finish();
    gz.flush();
  }

  private static ValueType valueType(Index strings, String type, String unit) {
    return ValueType.newBuilder().setType(strings.id(type)).setUnit(strings.id(unit)).build();
  }
}
