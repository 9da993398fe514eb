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
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
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
    assertEquals(List.of("samples/count", "cpu/nanoseconds", "wall/nanoseconds"), types);
    assertEquals("wall", st.get((int) p.getDefaultSampleType()));
    assertEquals("cpu", st.get((int) p.getPeriodType().getType()));
    assertEquals("nanoseconds", st.get((int) p.getPeriodType().getUnit()));
    assertEquals(1_000_000L, p.getPeriod());
    assertEquals(0, p.getTimeNanos()); // boot-relative trace clock: no date
    assertEquals(21_000_000_000L, p.getDurationNanos());

    List<String> comments = new ArrayList<>();
    p.getCommentList().forEach(c -> comments.add(st.get(c.intValue())));
    assertThat(comments, hasItem("loadprof run trace-a: source /traces/trace-a.txt.gz, event cpu-clock"));
    assertThat(comments,
        hasItem("warning (trace-b): context switches were sampled; loads are estimated"));

    Map<Long, String> functionNames = new HashMap<>();
    Map<Long, String> functionFiles = new HashMap<>();
    for (Function f : p.getFunctionList()) {
      functionNames.put(f.getId(), st.get((int) f.getName()));
      functionFiles.put(f.getId(), st.get((int) f.getFilename()));
    }
    Map<Long, Long> locationFunction = new HashMap<>();
    for (Location l : p.getLocationList()) {
      assertEquals(1, l.getLineCount());
      locationFunction.put(l.getId(), l.getLine(0).getFunctionId());
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
        assertEquals("/usr/bin/db", functionFiles.get(locationFunction.get(s.getLocationId(0))));
      }
      if (leaf.equals("tick")) {
        assertEquals("cron", st.get((int) labels.get("process").getStr())); // from RunInfo
      }
    }
    assertTrue(found);
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

  @Test
  void bytesDoNotDependOnInputOrder() throws IOException {
    Analysis a = Fixtures.mixed(LoadRange.ALL);
    byte[] expected = gz(a);
    for (long seed = 1; seed <= 5; seed++) {
      assertArrayEquals(expected, gz(Fixtures.shuffled(a, seed)));
    }
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
