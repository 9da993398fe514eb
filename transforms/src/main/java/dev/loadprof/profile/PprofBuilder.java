package dev.loadprof.profile;

import dev.loadprof.model.ProcessKey;
import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/**
 * Builds a pprof Profile from load-weighted stacks. Values per sample are [samples/count,
 * cpu/nanoseconds, wall/nanoseconds] with wall the default, so stock pprof shows real time. Every
 * sample carries numeric labels load, pid and tid (as perf_data_converter writes pid and tid) and
 * string labels process and run. pprof's -tagfocus reads a value that parses as a number as a
 * numeric range, so ids must be numeric labels for {@code -tagfocus=pid=N} to match.
 *
 * <p>As perf_data_converter does, every object file (dso) is a Mapping and every frame a Location
 * with its address and mapping. The addresses are perf's: object-relative for user code, so a
 * mapping's start, limit and offset stay 0, which pprof's ELF reader takes as "addresses already
 * adjusted". The main binary's mapping comes first ({@link MappingOrder}).
 *
 * <p>The duration is the sum of the wall times of the runs in the profile, each its own span:
 * runs are often recorded on different machines or boots, whose clocks cannot be compared. A run
 * none of whose processes is in the profile (unusable, or filtered out) adds nothing.
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
  private final Set<String> runsInProfile = new HashSet<>();

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
    processes.forEach(process -> runsInProfile.add(process.runId));
  }

  /** The object's build id as the first run that knows it states it (perf.data only). */
  private String buildIdOf(String file) {
    for (RunInfo r : runs) {
      String id = r.buildIds.get(file);
      if (id != null) {
        return id;
      }
    }
    return null;
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

    Map<String, Long> mappingIds = new HashMap<>();
    for (String file : MappingOrder.of(kept)) {
      long id = mappingIds.size() + 1;
      mappingIds.put(file, id);
      // Symbolized already: pprof must not look for the binaries to symbolize them again.
      Mapping.Builder mapping =
          Mapping.newBuilder().setId(id).setFilename(strings.id(file)).setHasFunctions(true);
      String buildId = buildIdOf(file);
      if (buildId != null) {
        mapping.setBuildId(strings.id(buildId));
      }
      p.addMapping(mapping);
    }

    // One location per distinct frame, i.e. per (address, mapping) as long as an address names
    // one symbol; one function per (symbol, file). Ids in sorted frame order, so that they do
    // not depend on the input order.
    // Distinct frames by hash (a frame's strings cache their hashes), sorted once; each frame
    // object is hashed by value once (stacks share frame objects), then found by identity.
    Set<Frame> distinct = new HashSet<>();
    Map<Frame, Long> seen = new IdentityHashMap<>();
    for (StackWeight s : kept) {
      for (Frame f : s.stack()) {
        if (seen.put(f, 0L) == null) {
          distinct.add(f);
        }
      }
    }
    List<Frame> sortedFrames = new ArrayList<>(distinct);
    sortedFrames.sort(StackOrder.FRAMES);
    Map<Frame, Long> frameIds = new HashMap<>(sortedFrames.size() * 2);
    Map<Frame, Long> functionIds = new HashMap<>();
    for (Frame f : sortedFrames) {
      long locationId = p.getLocationCount() + 1;
      frameIds.put(f, locationId);
      Long functionId = functionIds.get(new Frame(f.symbol(), f.dso()));
      if (functionId == null) {
        functionId = (long) functionIds.size() + 1;
        functionIds.put(new Frame(f.symbol(), f.dso()), functionId);
        // No filename: perf names the object file, not the source file, and pprof -list
        // would print the object's bytes as source lines.
        p.addFunction(
            Function.newBuilder()
                .setId(functionId)
                .setName(strings.id(f.symbol()))
                .setSystemName(strings.id(f.symbol())));
      }
      p.addLocation(
          Location.newBuilder()
              .setId(locationId)
              .setMappingId(mappingIds.get(f.dso()))
              .setAddress(f.address())
              .addLine(Line.newBuilder().setFunctionId(functionId)));
    }

    long loadKey = strings.id(LABEL_LOAD);
    long pidKey = strings.id(LABEL_PID);
    long tidKey = strings.id(LABEL_TID);
    long processKey = strings.id(LABEL_PROCESS);
    long runKey = strings.id(LABEL_RUN);
    // Labels are immutable messages and repeat from sample to sample: each made once.
    Map<Long, Label> loadLabels = new HashMap<>();
    Map<Long, Label> pidLabels = new HashMap<>();
    Map<Long, Label> tidLabels = new HashMap<>();
    Map<Long, Label> processLabels = new HashMap<>();
    Map<Long, Label> runLabels = new HashMap<>();
    for (StackWeight s : kept) {
      Sample.Builder sample = Sample.newBuilder();
      for (Frame f : s.stack()) {
        Long id = seen.get(f);
        if (id == 0L) {
          id = frameIds.get(f);
          seen.put(f, id);
        }
        sample.addLocationId(id);
      }
      sample.addValue(s.count()).addValue(s.cpuNs()).addValue(s.wallNs());
      sample.addLabel(numLabel(loadLabels, loadKey, s.load()));
      sample.addLabel(numLabel(pidLabels, pidKey, ProcessKey.pid(s.pid())));
      if (s.tid() != StackWeight.ALL_THREADS) {
        sample.addLabel(numLabel(tidLabels, tidKey, s.tid()));
      }
      sample.addLabel(strLabel(processLabels, processKey,
          strings.id(names.comm(s.runId(), s.pid()))));
      sample.addLabel(strLabel(runLabels, runKey, strings.id(s.runId())));
      p.addSample(sample);
    }

    p.setPeriodType(valueType(strings, "cpu", "nanoseconds"));
    if (!runs.isEmpty()) {
      // Runs normally share one interval; with several, the first run (by id) speaks for all.
      p.setPeriod(runs.get(0).sampleIntervalNs);
      long start = runs.stream().mapToLong(r -> r.startNs).min().getAsLong();
      if (start >= EPOCH_2000_NS) {
        p.setTimeNanos(start);
      }
      long duration = 0;
      for (RunInfo r : runs) {
        if (runsInProfile.contains(r.runId)) {
          duration += Math.max(0, r.endNs - r.startNs);
        }
      }
      p.setDurationNanos(duration);
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

  private static Label numLabel(Map<Long, Label> made, long key, long num) {
    return made.computeIfAbsent(num, n -> Label.newBuilder().setKey(key).setNum(n).build());
  }

  private static Label strLabel(Map<Long, Label> made, long key, long str) {
    return made.computeIfAbsent(str, v -> Label.newBuilder().setKey(key).setStr(v).build());
  }

  private static ValueType valueType(Index strings, String type, String unit) {
    return ValueType.newBuilder().setType(strings.id(type)).setUnit(strings.id(unit)).build();
  }
}
