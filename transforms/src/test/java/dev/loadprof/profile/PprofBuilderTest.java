package dev.loadprof.profile;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.Fixtures;
import dev.loadprof.report.Reports;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class PprofBuilderTest {
  @Test
  void gzippedProfileRoundTrips() throws IOException {
    Profile p = parse(gz(Fixtures.mixed(LoadRange.ALL)));
    List<String> st = p.getStringTableList();
    assertEquals("", st.get(0));
    List<String> types = new ArrayList<>();
    for (ValueType t : p.getSampleTypeList()) {
      types.add(st.get((int) t.getType()) + "/" + st.get((int) t.getUnit()));
    }
    assertEquals(List.of("samples/count", "cpu/nanoseconds", "oncpu_real/nanoseconds"), types);
    assertEquals("oncpu_real", st.get((int) p.getDefaultSampleType()));
    assertEquals("cpu", st.get((int) p.getPeriodType().getType()));
    assertEquals("nanoseconds", st.get((int) p.getPeriodType().getUnit()));
    assertEquals(1_000_000L, p.getPeriod());
    assertEquals(0, p.getTimeNanos()); // boot-relative trace clock: no date
    // The runs' own spans, 1..12 s and 20..22 s, summed; not the 21 s from the first to the last.
    assertEquals(13_000_000_000L, p.getDurationNanos());

    List<String> comments = new ArrayList<>();
    p.getCommentList().forEach(c -> comments.add(st.get(c.intValue())));
    assertThat(comments, hasItem("loadprof run trace-a: source /traces/trace-a.txt.gz, event"
        + " cpu-clock; duration 11.000 s, the run's span (no run intervals)"));
    assertThat(comments,
        hasItem("warning (trace-b): context switches were sampled; loads are estimated"));

    Map<Long, String> functionNames = new HashMap<>();
    for (Function f : p.getFunctionList()) {
      functionNames.put(f.getId(), st.get((int) f.getName()));
      assertEquals(0, f.getFilename(), "perf knows object files, not source files");
    }
    Map<Long, String> mappingFiles = new HashMap<>();
    for (Mapping m : p.getMappingList()) {
      mappingFiles.put(m.getId(), st.get((int) m.getFilename()));
    }
    Map<Long, Long> locationFunction = new HashMap<>();
    Map<Long, String> locationFile = new HashMap<>();
    for (Location l : p.getLocationList()) {
      assertEquals(1, l.getLineCount());
      locationFunction.put(l.getId(), l.getLine(0).getFunctionId());
      locationFile.put(l.getId(), mappingFiles.get(l.getMappingId()));
    }
    // Every distinct (symbol, dso) frame is one function and one location.
    assertEquals(p.getFunctionCount(), p.getLocationCount());

    boolean found = false;
    for (Sample s : p.getSampleList()) {
      assertEquals(3, s.getValueCount());
      Map<String, Label> labels = new HashMap<>();
      for (Label l : s.getLabelList()) {
        labels.put(st.get((int) l.getKey()), l);
      }
      assertThat(labels.keySet(), containsInAnyOrder("load", "process", "pid", "tid", "run"));
      long load = labels.get("load").getNum();
      assertEquals(Math.round((double) s.getValue(1) / load), s.getValue(2));
      String leaf = functionNames.get(locationFunction.get(s.getLocationId(0)));
      if (leaf.equals("hash_rows")) {
        found = true;
        assertEquals(8, load);
        assertEquals("db", st.get((int) labels.get("process").getStr()));
        assertEquals(200, labels.get("pid").getNum());
        assertEquals(200, labels.get("tid").getNum());
        assertEquals("trace-a", st.get((int) labels.get("run").getStr()));
        assertEquals(16000, s.getValue(0));
        assertEquals(16_000_000_000L, s.getValue(1));
        assertEquals(2_000_000_000L, s.getValue(2));
        // Leaf first.
        assertEquals("main", functionNames.get(locationFunction.get(s.getLocationId(2))));
        assertEquals("/usr/bin/db", locationFile.get(s.getLocationId(0)));
      }
      if (leaf.equals("tick")) {
        assertEquals("cron", st.get((int) labels.get("process").getStr())); // from RunInfo
      }
    }
    assertTrue(found);
  }

  /**
   * The mapping, location and function tables of frames with addresses: one mapping per object
   * file, the main binary first; one location per (address, mapping); one function per symbol of
   * an object, shared by its locations, with no file name.
   */
  @Test
  void mappingsLocationsAndFunctionsFollowPerfDataConverter() {
    String app = "/opt/app/bin/server";
    Frame spinA = new Frame("spin", app, 0x1200);
    Frame spinB = new Frame("spin", app, 0x1234);
    Frame main = new Frame("main", app, 0x1100);
    Frame libc =
        new Frame("__libc_start_call_main", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x2724a);
    Frame kernel = new Frame("__schedule", "[kernel.kallsyms]", 0xffffffff821facd8L);
    Frame noObject = new Frame("[unknown]", "", 0);
    List<StackWeight> stacks = List.of(
        new StackWeight("r", 7, 7, 1, new Frame[] {spinA, main, libc}, 3, 3_000_000),
        new StackWeight("r", 7, 8, 2, new Frame[] {spinB, main, libc}, 2, 2_000_000),
        new StackWeight("r", 7, 8, 2, new Frame[] {kernel, spinB, main, libc}, 1, 1_000_000),
        new StackWeight("r", 7, 7, 1, new Frame[] {noObject}, 1, 1_000_000));
    Profile p = new PprofBuilder(List.of(run("r", 5_000_000_000L, 6_500_000_000L)),
        List.of(process("r", 7)), stacks, LoadRange.ALL).build();
    List<String> st = p.getStringTableList();

    List<String> files = new ArrayList<>();
    for (Mapping m : p.getMappingList()) {
      assertEquals(files.size() + 1, m.getId());
      assertTrue(m.getHasFunctions(), "symbolized: pprof must not look for the binaries");
      assertEquals(0, m.getBuildId());
      files.add(st.get((int) m.getFilename()));
    }
    assertEquals(List.of(app, "/usr/lib/x86_64-linux-gnu/libc.so.6", "[kernel.kallsyms]", ""),
        files);

    Map<Long, String> functions = new HashMap<>();
    for (Function f : p.getFunctionList()) {
      assertEquals(0, f.getFilename());
      assertEquals(f.getName(), f.getSystemName());
      functions.put(f.getId(), st.get((int) f.getName()));
    }
    assertEquals(5, functions.size(), "spin, main, libc start, __schedule, [unknown]");

    Map<String, Long> spinFunction = new HashMap<>();
    List<String> locations = new ArrayList<>();
    for (Location l : p.getLocationList()) {
      String function = functions.get(l.getLine(0).getFunctionId());
      locations.add(function + "@" + Long.toHexString(l.getAddress()) + " in "
          + files.get((int) l.getMappingId() - 1));
      if (function.equals("spin")) {
        spinFunction.put(Long.toHexString(l.getAddress()), l.getLine(0).getFunctionId());
      }
    }
    assertThat(locations, containsInAnyOrder(
        "spin@1200 in " + app, "spin@1234 in " + app, "main@1100 in " + app,
        "__libc_start_call_main@2724a in /usr/lib/x86_64-linux-gnu/libc.so.6",
        "__schedule@ffffffff821facd8 in [kernel.kallsyms]", "[unknown]@0 in "));
    assertEquals(spinFunction.get("1200"), spinFunction.get("1234"), "one function, two places");

    // Samples stay per thread: tids 7 and 8 of pid 7.
    List<Long> tids = new ArrayList<>();
    for (Sample s : p.getSampleList()) {
      for (Label l : s.getLabelList()) {
        if (st.get((int) l.getKey()).equals("tid")) {
          tids.add(l.getNum());
        }
      }
    }
    assertThat(tids, containsInAnyOrder(7L, 7L, 8L, 8L));
    assertEquals(1_500_000_000L, p.getDurationNanos());
  }

  /**
   * The samples are encoded by hand as they are made: the bytes must be protobuf's own encoding
   * of the same message (parsed back and written again by protobuf), for stacks with and
   * without frames, per thread and summed, with large ids and values, filtered or not.
   */
  @Test
  void theBytesAreProtobufsOwnEncodingOfTheProfile() throws IOException {
    Frame deep = new Frame("f", "/bin/app", 0x7fff_ffff_ffffL);
    Frame[] longStack = new Frame[300];
    java.util.Arrays.fill(longStack, deep);
    List<StackWeight> stacks = List.of(
        new StackWeight("r", 7, 7, 1, new Frame[0], 1, 1_000_000),
        new StackWeight("r", 7, StackWeight.ALL_THREADS, 3, longStack, 300_000,
            Long.MAX_VALUE / 2),
        new StackWeight("r", 7, 9, 200, new Frame[] {deep, new Frame("g", "[kernel.kallsyms]",
            0xffffffff821facd8L)}, 5, 7));
    List<PprofBuilder> builders = new ArrayList<>(List.of(
        new PprofBuilder(List.of(run("r", 5_000_000_000L, 6_500_000_000L)),
            List.of(process("r", 7)), stacks, LoadRange.ALL),
        new PprofBuilder(List.of(), List.of(), List.of(), LoadRange.ALL)));
    for (LoadRange filter : List.of(LoadRange.ALL, LoadRange.parse("2:4"))) {
      builders.add(Reports.pprof(Fixtures.mixed(filter)));
    }
    builders.add(Reports.pprof(Fixtures.classic()));
    for (PprofBuilder b : builders) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      b.writeTo(bytes);
      byte[] written = bytes.toByteArray();
      assertArrayEquals(Profile.parseFrom(written).toByteArray(), written);
    }
  }

  @Test
  void aRunWithNothingInTheProfileAddsNoDuration() {
    RunInfo used = run("a", 10_000_000_000L, 13_000_000_000L);
    RunInfo unusable = run("b", 100_000_000_000L, 150_000_000_000L);
    Profile p = new PprofBuilder(List.of(used, unusable), List.of(process("a", 1)), List.of(),
        LoadRange.ALL).build();
    assertEquals(3_000_000_000L, p.getDurationNanos());
  }

  @Test
  void loadFilterDropsSamples() throws IOException {
    Profile p = parse(gz(Fixtures.mixed(LoadRange.parse("2:4"))));
    assertTrue(p.getSampleCount() > 0);
    for (Sample s : p.getSampleList()) {
      long load = s.getLabel(0).getNum();
      assertTrue(load >= 2 && load <= 4, "load " + load);
    }
    for (Function f : p.getFunctionList()) {
      String name = p.getStringTable((int) f.getName());
      assertTrue(!name.equals("hash_rows") && !name.equals("spin_lock"), name);
    }
  }

  /**
   * Frames found by object identity first (stacks share their frame objects) still count by
   * value: equal frames in separate objects give the same locations, functions and merged
   * stacks as one shared object.
   */
  @Test
  void equalFramesInSeparateObjectsAreOneFrame() throws IOException {
    Analysis shared = Fixtures.mixed(LoadRange.ALL);
    List<StackWeight> copied = new ArrayList<>();
    for (StackWeight s : shared.threadStacks()) {
      Frame[] frames = new Frame[s.stack().length];
      for (int i = 0; i < frames.length; i++) {
        Frame f = s.stack()[i];
        frames[i] = new Frame(new String(f.symbol()), new String(f.dso()), f.address());
      }
      copied.add(new StackWeight(s.runId(), s.pid(), s.tid(), s.load(), frames, s.count(),
          s.cpuNs()));
    }
    Analysis separate = new Analysis(shared.runs(), shared.processes(), copied,
        shared.loadFilter(), shared.groupBy());
    assertArrayEquals(gz(shared), gz(separate));
    assertEquals(shared.stacks(), separate.stacks());
  }

  @Test
  void bytesDoNotDependOnInputOrder() throws IOException {
    Analysis a = Fixtures.mixed(LoadRange.ALL);
    byte[] expected = gz(a);
    for (long seed = 1; seed <= 5; seed++) {
      assertArrayEquals(expected, gz(Fixtures.shuffled(a, seed)));
    }
  }

  private static RunInfo run(String id, long startNs, long endNs) {
    RunInfo r = new RunInfo();
    r.runId = id;
    r.startNs = startNs;
    r.endNs = endNs;
    return r;
  }

  private static ProcessLoad process(String runId, int pid) {
    ProcessLoad p = new ProcessLoad();
    p.runId = runId;
    p.pid = pid;
    return p;
  }

  static byte[] gz(Analysis a) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Reports.pprof(a).writeGzipped(out);
    return out.toByteArray();
  }

  static Profile parse(byte[] gz) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return Profile.parseFrom(in);
    }
  }
}
