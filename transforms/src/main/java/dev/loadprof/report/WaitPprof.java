package dev.loadprof.report;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.profile.Index;
import dev.loadprof.profile.MappingOrder;
import dev.loadprof.profile.PprofBuilder;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.ProfileHeader;
import dev.loadprof.profile.StackWeight;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * A pprof profile of time in nanoseconds over stacks that carry a label of their own besides
 * profile.pb.gz's (numeric pid and tid, process and run): offcpu.pb.gz's waits (label state)
 * and critical.pb.gz's path (label kind). As profile.pb.gz: the subject's program is the first
 * mapping, so pprof names it ("File:"), and the duration and the comments (runs, warnings) are
 * {@link ProfileHeader}'s.
 */
final class WaitPprof {
  private WaitPprof() {}

  /** A sample: its stack (leaf first) under an optional leaf frame, its label and its ns. */
  record Row(ProcessLoad process, int tid, Frame leaf, CallStack stack, String label, long ns) {}

  /**
   * A stack's frames with their addresses: two stacks can print the same (the same functions at
   * other addresses), and without the addresses their order followed a hash map's. The text of
   * {@code stack.toString()}, each frame's made once.
   */
  static String sortKey(CallStack stack, Map<Frame, String> frameTexts) {
    StringBuilder key = new StringBuilder().append('[');
    Frame[] frames = stack.frames();
    for (int i = 0; i < frames.length; i++) {
      if (i > 0) {
        key.append(", ");
      }
      key.append(frameTexts.computeIfAbsent(frames[i], Frame::toString));
    }
    key.append(']');
    for (Frame f : frames) {
      key.append(' ').append(Long.toHexString(f.address()));
    }
    return key.toString();
  }

  /** Writes the profile gzipped, as pprof reads it; the stream is left open. */
  static void writeGzipped(Profile profile, OutputStream out) throws IOException {
    GZIPOutputStream gz = new GZIPOutputStream(out);
    profile.writeTo(gz);
    gz.finish();
    gz.flush();
  }

  /** The profile of the rows, in their order; sample type {@code type}/nanoseconds. */
  static Profile build(Analysis a, String type, String labelKey, List<Row> rows) {
    Index strings = new Index();
    Profile.Builder p = Profile.newBuilder();
    p.addSampleType(valueType(strings, type, "nanoseconds"));
    p.setPeriodType(valueType(strings, type, "nanoseconds"));
    Map<String, Long> mappings = new HashMap<>();
    List<StackWeight> byWait = new ArrayList<>(rows.size());
    for (Row r : rows) { // weighed by their time to find the main binary
      byWait.add(new StackWeight(r.process().runId, r.process().pid, r.tid(), 0, r.stack(), 1,
          r.ns()));
    }
    for (String file : MappingOrder.of(byWait, MappingOrder.subjectOf(a.runs()))) {
      if (!file.isEmpty()) {
        mappings.put(file, (long) mappings.size() + 1);
        Mapping.Builder mapping = Mapping.newBuilder().setId(mappings.size())
            .setFilename(strings.id(file)).setHasFunctions(true);
        String buildId = ProfileHeader.buildId(a.runs(), file);
        if (buildId != null) {
          mapping.setBuildId(strings.id(buildId));
        }
        p.addMapping(mapping);
      }
    }
    Map<Frame, Long> locations = new HashMap<>();
    Map<String, Long> functions = new HashMap<>();
    long pidKey = strings.id(PprofBuilder.LABEL_PID);
    long tidKey = strings.id(PprofBuilder.LABEL_TID);
    long stateKey = strings.id(labelKey);
    long processKey = strings.id(PprofBuilder.LABEL_PROCESS);
    long runKey = strings.id(PprofBuilder.LABEL_RUN);
    for (Row r : rows) {
      Sample.Builder sample = Sample.newBuilder();
      if (r.leaf() != null) {
        sample.addLocationId(location(p, strings, mappings, locations, functions, r.leaf()));
      }
      for (Frame f : r.stack().frames()) {
        sample.addLocationId(location(p, strings, mappings, locations, functions, f));
      }
      sample.addValue(r.ns());
      sample.addLabel(Label.newBuilder().setKey(pidKey).setNum(ProcessKey.pid(r.process().pid)));
      sample.addLabel(Label.newBuilder().setKey(tidKey).setNum(r.tid()));
      sample.addLabel(Label.newBuilder().setKey(stateKey).setStr(strings.id(r.label())));
      sample.addLabel(Label.newBuilder().setKey(processKey)
          .setStr(strings.id(a.comm(r.process().runId, r.process().pid))));
      sample.addLabel(Label.newBuilder().setKey(runKey).setStr(strings.id(r.process().runId)));
      p.addSample(sample);
    }
    ProfileHeader.describe(p, a.runs(), a.processes(),
        a.loadFilter().isAll() ? "" : "load filter " + a.loadFilter(), strings::id);
    p.addAllStringTable(strings.strings());
    return p.build();
  }

  private static long location(Profile.Builder p, Index strings, Map<String, Long> mappings,
      Map<Frame, Long> locations, Map<String, Long> functions, Frame f) {
    Long id = locations.get(f);
    if (id != null) {
      return id;
    }
    Long functionId = functions.get(f.symbol() + '\0' + f.dso());
    if (functionId == null) {
      functionId = (long) functions.size() + 1;
      functions.put(f.symbol() + '\0' + f.dso(), functionId);
      p.addFunction(Function.newBuilder().setId(functionId).setName(strings.id(f.symbol()))
          .setSystemName(strings.id(f.symbol())));
    }
    Location.Builder location = Location.newBuilder().setId(locations.size() + 1L)
        .setAddress(f.address()).addLine(Line.newBuilder().setFunctionId(functionId));
    if (!f.dso().isEmpty()) {
      Long mappingId = mappings.get(f.dso());
      if (mappingId == null) {
        mappingId = (long) mappings.size() + 1;
        mappings.put(f.dso(), mappingId);
        p.addMapping(Mapping.newBuilder().setId(mappingId).setFilename(strings.id(f.dso()))
            .setHasFunctions(true));
      }
      location.setMappingId(mappingId);
    }
    p.addLocation(location);
    locations.put(f, location.getId());
    return location.getId();
  }

  private static ValueType valueType(Index strings, String type, String unit) {
    return ValueType.newBuilder().setType(strings.id(type)).setUnit(strings.id(unit)).build();
  }
}
