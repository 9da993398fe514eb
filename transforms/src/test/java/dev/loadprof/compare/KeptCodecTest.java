package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.LoadTimeline;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.PartCodec;
import dev.loadprof.report.PartWriter;
import dev.loadprof.report.RunAnalyses;
import dev.loadprof.testtools.JavaSerialization;
import dev.loadprof.wall.ThreadStateSummary;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A run's kept figures as stored ({@link KeptCodec}, {@link PartCodec}) read back as Java
 * serialization reads back the same objects: every field, every map's order of iteration, on
 * recorded runs (a critical path, interference, thread states) and on a run with every rare
 * field set. A field added to a class it writes fails {@link #theCodecWritesEveryFieldOfItsClasses}
 * until the codec writes it too.
 */
class KeptCodecTest {
  /** Recorded runs: a critical path (critical-base), another process at work (neighbour-1). */
  @ParameterizedTest
  @ValueSource(strings = {"critical-base", "neighbour-1", "base-1", "cpu-1"})
  void aRecordedRunsKeptPartReadsBackAsJavaSerializationReadsItBack(String fixture)
      throws Exception {
    NightlyJob.Kept kept = keptOf(fixture);
    assertNull(new PartWriter().part(kept.run()), "of the shape the codec writes");
    assertNotNull(KeptCodec.encode(kept));
    assertReadsBackAsJava(kept);
  }

  @Test
  void aRunWithEveryRareFieldSetReadsBackAsJavaSerializationReadsItBack() throws Exception {
    NightlyJob.Kept kept = keptOf("critical-base");
    RunInfo run = RunAnalyses.runsOf(kept.run()).get(0);
    run.nightDoubt = "the night is in doubt";
    run.unusableReason = null;
    run.requestedEvent = "cycles";
    run.unusedEvents.put("sched:sched_wakeup", 12L);
    run.threadForks.put(77, new long[] {1_000, 76});
    run.buildIds.put("/usr/bin/x", "abc");
    run.subjectPids.add(4242);
    run.warnings = new ArrayList<>(run.warnings); // as a run read, before an analysis
    run.warnings.add("a warning \u00e9\u4e2d");
    run.health = TraceHealth.of(Map.of("lost_events", 3L, "zero_but_kept", 0L),
        List.of("t.txt:3: bad"));
    LossTimeline losses = new LossTimeline();
    for (long t = 1_000_000_000L; t < 1_400_000_000L; t += 300_000) {
      losses.record(t);
    }
    losses.lost(1_100_000_000L, 3);
    losses.lost(-1, 5);
    run.losses = losses;
    for (ProcessLoad p : processesOf(kept)) {
      if (p.threadStates != null) {
        p.threadStates.cpuWaitOthersNs = Double.NaN;
        p.threadStates.runnableByPid = new HashMap<>();
        for (int pid = 1; pid < 40; pid++) { // more than 16: the map is sized up when read
          p.threadStates.runnableByPid.put(pid * 977, pid * 1.5);
        }
      }
      p.timeline = null;
    }
    assertNotNull(KeptCodec.encode(kept));
    assertReadsBackAsJava(kept);
    NightlyJob.Kept back = KeptCodec.decode(KeptCodec.encode(kept));
    assertEquals(0L, RunAnalyses.runsOf(back.run()).get(0).health.counters().get("zero_but_kept"));
  }

  @Test
  void aHashMapSizedAsJavaReadsOneBackIteratesAsItDoes() throws Exception {
    for (int size : new int[] {0, 1, 11, 12, 13, 24, 25, 100, 1_000}) {
      HashMap<Integer, Integer> grown = new HashMap<>();
      for (int i = 0; i < size * 3; i++) { // grown larger, then emptied down to size
        grown.put(i * 31, i);
      }
      grown.keySet().removeIf(k -> k / 31 >= size);
      @SuppressWarnings("unchecked")
      Map<Integer, Integer> java = (Map<Integer, Integer>) JavaSerialization.read(
          JavaSerialization.bytes(grown));
      Map<Integer, Integer> ours = PartCodec.asJavaReadsBack(grown.size());
      grown.forEach(ours::put);
      assertEquals(List.copyOf(java.keySet()), List.copyOf(ours.keySet()), "size " + size);
    }
  }

  @Test
  void aKeptPartOfAnotherShapeIsSerializedAsBefore() throws Exception {
    NightlyJob.Kept kept = keptOf("base-1");
    processesOf(kept).get(0).timeline.addLoad(1_000_000, 5_000_000, 2); // buckets held
    assertNull(KeptCodec.encode(kept));
    Object back = JavaSerialization.read(JavaSerialization.bytes(kept));
    assertDeepEquals(kept, back, "kept");
  }

  @Test
  void everyCutOfTheBytesFailsToRead() throws Exception {
    byte[] bytes = KeptCodec.encode(keptOf("neighbour-1"));
    for (int cut = 0; cut < bytes.length; cut += Math.max(1, bytes.length / 400)) {
      byte[] cutBytes = Arrays.copyOf(bytes, cut);
      assertThrows(Exception.class, () -> KeptCodec.decode(cutBytes), "cut at " + cut);
    }
    byte[] more = Arrays.copyOf(bytes, bytes.length + 1);
    IOException e = assertThrows(IOException.class, () -> KeptCodec.decode(more));
    assertTrue(e.getMessage().contains("bytes left"), e.getMessage());
    InvalidObjectException wrapped = assertThrows(InvalidObjectException.class,
        () -> JavaSerialization.read(JavaSerialization.bytes(new KeptCodec.Compact(
            Arrays.copyOf(bytes, bytes.length / 2)))));
    assertTrue(wrapped.getMessage().contains("unreadable run figures"), wrapped.getMessage());
  }

  /** Each class the codec writes, with the fields it writes; another field fails this. */
  @Test
  void theCodecWritesEveryFieldOfItsClasses() {
    assertEquals(Set.of("runId", "source", "host", "capturedOn", "night", "nightDoubt",
        "samplingEvent", "periodIsNanoseconds", "sampleIntervalNs", "layout", "pidSource",
        "cpuCount", "lanes", "startNs", "endNs", "processNames", "subjectPid", "subjectPids",
        "threadForks", "buildIds", "health", "losses", "warnings", "unusableReason",
        "requestedEvent", "unusedEvents"), fields(RunInfo.class), "RunInfo: write it in PartCodec");
    assertEquals(Set.of("runId", "pid", "comm", "samples", "cpuNs", "samplesAtLoad",
        "cpuNsAtLoad", "timeAtLoadNs", "spanStartNs", "spanEndNs", "health", "timeline",
        "threadStates", "stateTimeline", "criticalPath"), fields(ProcessLoad.class),
        "ProcessLoad: write it in PartCodec");
    assertEquals(Set.of("spanNs", "onCpuRealNs", "load0Ns", "byStateNs", "runnableOwnNs",
        "runnableOtherNs", "runnableUnattributedNs", "runnableByPid", "cpuWaitNs",
        "cpuWaitOnCpuNs", "cpuWaitOthersNs", "cpuWaitOthersOnCpuNs", "unfinishedNs", "waits",
        "load0ByCause", "load0ByStateNs", "load0UnattributedNs", "hasStates", "hasStacks"),
        fields(ThreadStateSummary.class), "ThreadStateSummary: write it in PartCodec");
    assertEquals(Set.of("counters", "malformedExamples"), fields(TraceHealth.class),
        "TraceHealth: write it in PartCodec");
    assertEquals(Set.of("bucketNs", "base", "lowest", "highest", "lossFrom", "lossTo",
        "lossCount", "losses", "placed", "undated"), fields(LossTimeline.class),
        "LossTimeline: write it in PartCodec (its archive's form)");
    assertEquals(Set.of("level", "minBaseIndex", "maxBaseIndex", "buckets"),
        fields(LoadTimeline.class), "LoadTimeline: PartCodec writes only an empty one");
    assertEquals(Set.of("runs", "processes", "filteredOut"), fields(RunAnalyses.Part.class));
    assertEquals(Set.of("functions", "run"), fields(NightlyJob.Kept.class));
  }

  // ------------------------------------------------------------------ helpers

  private static NightlyJob.Kept keptOf(String fixture) {
    Analysis a = TraceRuns.assembled(Map.of(fixture, "r-" + fixture), null);
    return new NightlyJob(null).keep(a);
  }

  @SuppressWarnings("unchecked")
  private static List<ProcessLoad> processesOf(NightlyJob.Kept kept) throws Exception {
    Field f = RunAnalyses.Part.class.getDeclaredField("processes");
    f.setAccessible(true);
    return (List<ProcessLoad>) f.get(kept.run());
  }

  /** The codec's read-back against Java serialization's of the same objects. */
  private static void assertReadsBackAsJava(NightlyJob.Kept kept) throws Exception {
    Object javaFunctions = JavaSerialization.read(JavaSerialization.bytes(
        new HashMap<>(kept.functions())));
    Object javaPart = JavaSerialization.read(JavaSerialization.bytes(kept.run()));
    NightlyJob.Kept ours = KeptCodec.decode(KeptCodec.encode(kept));
    assertDeepEquals(javaFunctions, ours.functions(), "functions");
    assertDeepEquals(javaPart, ours.run(), "part");
    // and through Java serialization, as a figures file holds it
    NightlyJob.Kept viaStream = (NightlyJob.Kept) JavaSerialization.read(
        JavaSerialization.bytes(kept));
    assertDeepEquals(ours, viaStream, "kept");
  }

  private static Set<String> fields(Class<?> c) {
    return Stream.of(c.getDeclaredFields())
        .filter(f -> !Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers()))
        .map(Field::getName).collect(Collectors.toSet());
  }

  /** Field by field, maps and collections in their order of iteration, doubles bit for bit. */
  static void assertDeepEquals(Object expected, Object actual, String path) throws Exception {
    if (expected == null || actual == null) {
      assertEquals(expected, actual, path);
      return;
    }
    assertEquals(expected.getClass(), actual.getClass(), path);
    if (expected instanceof Double d) {
      assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits((Double) actual),
          path);
    } else if (expected instanceof String || expected instanceof Number
        || expected instanceof Boolean || expected instanceof Enum<?>) {
      assertEquals(expected, actual, path);
    } else if (expected.getClass().isArray()) {
      int n = java.lang.reflect.Array.getLength(expected);
      assertEquals(n, java.lang.reflect.Array.getLength(actual), path + ".length");
      for (int i = 0; i < n; i++) {
        assertDeepEquals(java.lang.reflect.Array.get(expected, i),
            java.lang.reflect.Array.get(actual, i), path + "[" + i + "]");
      }
    } else if (expected instanceof Map<?, ?> m) {
      assertEquals(m.size(), ((Map<?, ?>) actual).size(), path + ".size");
      Iterator<? extends Map.Entry<?, ?>> a = ((Map<?, ?>) actual).entrySet().iterator();
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        Map.Entry<?, ?> o = a.next();
        assertDeepEquals(e.getKey(), o.getKey(), path + ".key#" + i);
        assertDeepEquals(e.getValue(), o.getValue(), path + "[" + e.getKey() + "]");
        i++;
      }
    } else if (expected instanceof Collection<?> c) {
      assertEquals(new ArrayList<>(c).size(), ((Collection<?>) actual).size(), path + ".size");
      Iterator<?> a = ((Collection<?>) actual).iterator();
      int i = 0;
      for (Object e : c) {
        assertDeepEquals(e, a.next(), path + "#" + i++);
      }
    } else if (expected instanceof TraceHealth h) {
      assertEquals(h.counters(), ((TraceHealth) actual).counters(), path + ".counters");
      assertEquals(h.malformedExamples(), ((TraceHealth) actual).malformedExamples(), path);
    } else if (expected instanceof LossTimeline t) {
      LossTimeline o = (LossTimeline) actual;
      assertEquals(t.hasRecords(), o.hasRecords(), path);
      assertEquals(t.bucketNs(), o.bucketNs(), path);
      assertEquals(t.firstBucket(), o.firstBucket(), path);
      assertArrayEquals(t.counts(), o.counts(), path);
      assertEquals(t.undated(), o.undated(), path);
      assertEquals(t.totalLost(), o.totalLost(), path);
      assertEquals(t.unplaced(), o.unplaced(), path);
      assertArrayEquals(t.lossRange(), o.lossRange(), path);
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(t.losses()[i], o.losses()[i], path);
      }
      assertEquals(t.recordsWithin(0, Long.MAX_VALUE / 4), o.recordsWithin(0, Long.MAX_VALUE / 4),
          path);
      assertEquals(t.recordsWithin(1_050_000_000L, 1_150_000_000L),
          o.recordsWithin(1_050_000_000L, 1_150_000_000L), path);
    } else if (expected instanceof CriticalPath p) {
      assertArrayEquals(CriticalPath.encoded(p), CriticalPath.encoded((CriticalPath) actual),
          path);
    } else {
      for (Class<?> c = expected.getClass(); c != null && c != Object.class;
          c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || Modifier.isTransient(f.getModifiers())) {
            continue;
          }
          f.setAccessible(true);
          assertDeepEquals(f.get(expected), f.get(actual), path + "." + f.getName());
        }
      }
    }
  }

  @Test
  void theDeepComparisonSeesAFieldThatDiffers() throws Exception {
    NightlyJob.Kept kept = keptOf("base-1");
    NightlyJob.Kept other = KeptCodec.decode(KeptCodec.encode(kept));
    RunAnalyses.runsOf(other.run()).get(0).cpuCount++;
    assertFalse(passes(() -> assertDeepEquals(kept, other, "kept")));
    NightlyJob.Kept reordered = KeptCodec.decode(KeptCodec.encode(kept));
    TreeSet<Integer> none = new TreeSet<>();
    RunAnalyses.runsOf(reordered.run()).get(0).subjectPids = none;
    assertTrue(passes(() -> assertDeepEquals(kept, KeptCodec.decode(KeptCodec.encode(kept)),
        "kept")));
    Map<Integer, Double> a = new HashMap<>(Map.of(1, 1.0, 17, 2.0));
    Map<Integer, Double> b = new TreeMap<>(Map.of(1, 1.0, 17, 2.0));
    assertFalse(passes(() -> assertDeepEquals(a, b, "maps of other classes")));
  }

  private interface Check {
    void run() throws Exception;
  }

  private static boolean passes(Check c) {
    try {
      c.run();
      return true;
    } catch (AssertionError | Exception e) {
      return false;
    }
  }
}
