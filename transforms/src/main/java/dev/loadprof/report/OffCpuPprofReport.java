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
import dev.loadprof.wall.ThreadStateSummary;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * offcpu.pb.gz: the off-CPU profile for go tool pprof. Sample type off_cpu/nanoseconds (thread
 * time spent waiting); one sample per thread and distinct (state, switch-out stack), whose leaf
 * frame is the state, labelled like profile.pb.gz (numeric pid and tid, process and run) plus a
 * string label state. Narrowed like the profile (--tid, -C, --time, --load). As profile.pb.gz:
 * the subject's program is the first mapping, so pprof names it ("File:"), and the duration and
 * the comments (runs, warnings) are {@link ProfileHeader}'s.
 */
public final class OffCpuPprofReport implements Report {
  public static final String FILE_NAME = "offcpu.pb.gz";
  public static final String LABEL_STATE = "state";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public boolean isText() {
    return false;
  }

  @Override
  public void write(Analysis a, OutputStream out) throws IOException {
    GZIPOutputStream gz = new GZIPOutputStream(out);
    build(a).writeTo(gz);
    gz.finish();
    gz.flush();
  }

  /** A wait and its stack's text, made once: the sort compares it O(n log n) times. */
  private record Row(ProcessLoad process, ThreadStateSummary.Wait waitKey, long ns,
      String stackText) {}

  /**
   * A stack's frames with their addresses: two stacks can print the same (the same functions at
   * other addresses), and without the addresses their order followed a hash map's. The text of
   * {@code stack.toString()}, each frame's made once.
   */
  private static String sortKey(CallStack stack, Map<Frame, String> frameTexts) {
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

  /** By run, pid, tid, state, then stack text; written out for C1 (see StackOrder.STACKS). */
  private static int compareRows(Row x, Row y) {
    int c = x.process().runId.compareTo(y.process().runId);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(x.process().pid, y.process().pid);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(x.waitKey().tid(), y.waitKey().tid());
    if (c != 0) {
      return c;
    }
    c = x.waitKey().state().compareTo(y.waitKey().state());
    return c != 0 ? c : x.stackText().compareTo(y.stackText());
  }

  static Profile build(Analysis a) {
    List<Row> rows = new ArrayList<>();
    Map<Frame, String> frameTexts = new IdentityHashMap<>();
    for (ProcessLoad p : a.processes()) {
      if (p.threadStates != null) {
        p.threadStates.waits.forEach((w, ns) -> {
          if (Math.round(ns) > 0) {
            rows.add(new Row(p, w, Math.round(ns), sortKey(w.stack(), frameTexts)));
          }
        });
      }
    }
    // A deterministic order, whatever order the maps hold them in.
    rows.sort(OffCpuPprofReport::compareRows);
    Index strings = new Index();
    Profile.Builder p = Profile.newBuilder();
    p.addSampleType(valueType(strings, "off_cpu", "nanoseconds"));
    p.setPeriodType(valueType(strings, "off_cpu", "nanoseconds"));
    Map<String, Long> mappings = new HashMap<>();
    List<StackWeight> byWait = new ArrayList<>(rows.size());
    for (Row r : rows) { // weighed by off-CPU time to find the main binary
      byWait.add(new StackWeight(r.process().runId, r.process().pid, r.waitKey().tid(), 0,
          r.waitKey().stack(), 1, r.ns()));
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
    long stateKey = strings.id(LABEL_STATE);
    long processKey = strings.id(PprofBuilder.LABEL_PROCESS);
    long runKey = strings.id(PprofBuilder.LABEL_RUN);
    for (Row r : rows) {
      Sample.Builder sample = Sample.newBuilder();
      String state = r.waitKey().state().label;
      sample.addLocationId(location(p, strings, mappings, locations, functions,
          new Frame(state, "")));
      for (Frame f : r.waitKey().stack().frames()) {
        sample.addLocationId(location(p, strings, mappings, locations, functions, f));
      }
      sample.addValue(r.ns());
      sample.addLabel(Label.newBuilder().setKey(pidKey).setNum(ProcessKey.pid(r.process().pid)));
      sample.addLabel(Label.newBuilder().setKey(tidKey).setNum(r.waitKey().tid()));
      sample.addLabel(Label.newBuilder().setKey(stateKey).setStr(strings.id(state)));
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
