package dev.loadprof.profile;

import dev.loadprof.model.ProcessKey;
import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.ValueType;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
 * cpu/nanoseconds, oncpu_real/nanoseconds] with oncpu_real the default, so stock pprof shows
 * real time: the real (wall-clock) time that the process spent on CPU there, each sample's
 * period divided by its load. Not "wall", which a Go user reads as on- and off-CPU time
 * (fgprof's): the off-CPU time is offcpu.pb.gz's. Every
 * sample carries numeric labels load, pid and tid (as perf_data_converter writes pid and tid) and
 * string labels process and run. pprof's -tagfocus reads a value that parses as a number as a
 * numeric range, so ids must be numeric labels for {@code -tagfocus=pid=N} to match.
 *
 * <p>As perf_data_converter does, every object file (dso) is a Mapping and every frame a Location
 * with its address and mapping. The addresses are perf's: object-relative for user code, so a
 * mapping's start, limit and offset stay 0, which pprof's ELF reader takes as "addresses already
 * adjusted". The main binary's mapping comes first ({@link MappingOrder}).
 *
 * <p>The duration, start time and comments are {@link ProfileHeader}'s.
 */
public final class PprofBuilder {
  public static final String FILE_NAME = "profile.pb.gz";

  public static final String LABEL_LOAD = "load";
  public static final String LABEL_PID = "pid";
  public static final String LABEL_TID = "tid";
  public static final String LABEL_PROCESS = "process";
  public static final String LABEL_RUN = "run";
  /** The default sample type: real time on CPU (see the class comment). */
  public static final String ONCPU_REAL = "oncpu_real";

  private final List<RunInfo> runs;
  private final List<StackWeight> stacks;
  private final LoadRange loadFilter;
  private final ProcessNames names;
  private final List<ProcessLoad> processes;

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
    this.processes = List.copyOf(processes);
  }

  /** The profile as a message (parsed back from the bytes {@link #writeTo} writes). */
  public Profile build() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      writeTo(bytes);
      return Profile.parseFrom(bytes.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes the profile's bytes, the samples as they are made: the bytes protobuf writes for the
   * same message (fields in number order, lists packed), without a message object per sample.
   * A profile of 148 k deep stacks made ~1.5 M objects that way, then encoded them.
   */
  public void writeTo(OutputStream out) throws IOException {
    Index strings = new Index();
    CodedOutputStream coded = CodedOutputStream.newInstance(out, 1 << 16);
    // Field 1, sample_type, comes before the samples (2); the rest (3 on) is a message after them.
    coded.writeMessage(1, valueType(strings, "samples", "count"));
    coded.writeMessage(1, valueType(strings, "cpu", "nanoseconds"));
    coded.writeMessage(1, valueType(strings, ONCPU_REAL, "nanoseconds"));
    Profile.Builder p = Profile.newBuilder();
    p.setDefaultSampleType(strings.id(ONCPU_REAL));

    List<StackWeight> kept = new ArrayList<>();
    for (StackWeight s : stacks) {
      if (loadFilter.contains(s.load())) {
        kept.add(s);
      }
    }

    Map<String, Long> mappingIds = new HashMap<>();
    for (String file : MappingOrder.of(kept, MappingOrder.subjectOf(runs))) {
      long id = mappingIds.size() + 1;
      mappingIds.put(file, id);
      // Symbolized already: pprof must not look for the binaries to symbolize them again.
      Mapping.Builder mapping =
          Mapping.newBuilder().setId(id).setFilename(strings.id(file)).setHasFunctions(true);
      String buildId = ProfileHeader.buildId(runs, file);
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
    // Labels repeat from sample to sample: each one's bytes made once.
    Map<Long, byte[]> loadLabels = new HashMap<>();
    Map<Long, byte[]> pidLabels = new HashMap<>();
    Map<Long, byte[]> tidLabels = new HashMap<>();
    Map<Long, byte[]> processLabels = new HashMap<>();
    Map<Long, byte[]> runLabels = new HashMap<>();
    long[] locations = new long[64];
    byte[][] labels = new byte[5][];
    for (StackWeight s : kept) {
      Frame[] stack = s.stack();
      if (locations.length < stack.length) {
        locations = new long[stack.length];
      }
      int locationBytes = 0;
      for (int i = 0; i < stack.length; i++) {
        Frame f = stack[i];
        Long id = seen.get(f);
        if (id == 0L) {
          id = frameIds.get(f);
          seen.put(f, id);
        }
        locations[i] = id;
        locationBytes += CodedOutputStream.computeUInt64SizeNoTag(id);
      }
      int n = 0;
      labels[n++] = numLabel(loadLabels, loadKey, s.load());
      labels[n++] = numLabel(pidLabels, pidKey, ProcessKey.pid(s.pid()));
      if (s.tid() != StackWeight.ALL_THREADS) {
        labels[n++] = numLabel(tidLabels, tidKey, s.tid());
      }
      labels[n++] = strLabel(processLabels, processKey, strings.id(names.comm(s.runId(),
          s.pid())));
      labels[n++] = strLabel(runLabels, runKey, strings.id(s.runId()));
      writeSample(coded, locations, stack.length, locationBytes,
          new long[] {s.count(), s.cpuNs(), s.wallNs()}, labels, n);
    }

    p.setPeriodType(valueType(strings, "cpu", "nanoseconds"));
    if (!runs.isEmpty()) {
      // Runs normally share one interval; with several, the first run (by id) speaks for all.
      p.setPeriod(runs.get(0).sampleIntervalNs);
    }
    ProfileHeader.describe(p, runs, processes,
        loadFilter.isAll() ? "" : "load filter " + loadFilter, strings::id);
    p.addAllStringTable(strings.strings());
    p.build().writeTo(coded);
    coded.flush();
  }

  /**
   * One Sample as field 2 of the profile, as protobuf encodes it: location_id (1) and value (2)
   * packed, an empty list left out, then each label (3) as a message.
   */
  private static void writeSample(CodedOutputStream coded, long[] locations, int count,
      int locationBytes, long[] values, byte[][] labels, int labelCount) throws IOException {
    int valueBytes = 0;
    for (long v : values) {
      valueBytes += CodedOutputStream.computeInt64SizeNoTag(v);
    }
    int size = 1 + CodedOutputStream.computeUInt32SizeNoTag(valueBytes) + valueBytes;
    if (count > 0) {
      size += 1 + CodedOutputStream.computeUInt32SizeNoTag(locationBytes) + locationBytes;
    }
    for (int i = 0; i < labelCount; i++) {
      size += 1 + CodedOutputStream.computeUInt32SizeNoTag(labels[i].length) + labels[i].length;
    }
    coded.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    coded.writeUInt32NoTag(size);
    if (count > 0) {
      coded.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      coded.writeUInt32NoTag(locationBytes);
      for (int i = 0; i < count; i++) {
        coded.writeUInt64NoTag(locations[i]);
      }
    }
    coded.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    coded.writeUInt32NoTag(valueBytes);
    for (long v : values) {
      coded.writeInt64NoTag(v);
    }
    for (int i = 0; i < labelCount; i++) {
      coded.writeTag(3, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      coded.writeUInt32NoTag(labels[i].length);
      coded.writeRawBytes(labels[i]);
    }
  }

  /** Writes the profile gzipped, as pprof expects a .pb.gz. */
  public void writeGzipped(OutputStream out) throws IOException {
    // GZIPOutputStream writes a zero mtime, so equal profiles give equal bytes.
    GZIPOutputStream gz = new GZIPOutputStream(out);
    writeTo(gz);
    gz.finish();
    gz.flush();
  }

  private static byte[] numLabel(Map<Long, byte[]> made, long key, long num) {
    return made.computeIfAbsent(num,
        n -> Label.newBuilder().setKey(key).setNum(n).build().toByteArray());
  }

  private static byte[] strLabel(Map<Long, byte[]> made, long key, long str) {
    return made.computeIfAbsent(str,
        v -> Label.newBuilder().setKey(key).setStr(v).build().toByteArray());
  }

  private static ValueType valueType(Index strings, String type, String unit) {
    return ValueType.newBuilder().setType(strings.id(type)).setUnit(strings.id(unit)).build();
  }
}
