package dev.loadprof.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

public class LoadTimelineTest {
  private static final long MS = 1_000_000L;

  /** Every figure of a timeline as one comparable string. */
  public static String canonical(LoadTimeline t) {
    StringBuilder s = new StringBuilder("level=" + t.level);
    for (Map.Entry<Long, LoadTimeline.Bucket> e : t.buckets.entrySet()) {
      LoadTimeline.Bucket b = e.getValue();
      s.append(' ').append(e.getKey()).append(':').append(b.threadNs).append('/')
          .append(b.busyNs).append('/').append(b.maxLoad).append(new TreeMap<>(b.functionCpuNs));
    }
    return s.toString();
  }

  @Test
  void anIntervalIsSplitExactlyAtBucketEdges() {
    LoadTimeline t = new LoadTimeline();
    t.addLoad(500_000, 2_250_000, 3); // 0.5 ms .. 2.25 ms at load 3
    assertEquals(0, t.level);
    assertEquals(3 * 500_000L, t.buckets.get(0L).threadNs);
    assertEquals(MS, t.buckets.get(1L).busyNs);
    assertEquals(250_000L, t.buckets.get(2L).busyNs);
    assertEquals(3, t.buckets.get(2L).maxLoad);
  }

  @Test
  void aLongSpanCoarsensToAtMostMaxBucketsAndKeepsTheSums() {
    LoadTimeline t = new LoadTimeline();
    t.addLoad(0, 10 * MS, 1);
    t.addSample(5 * MS, "f", 250_000);
    t.addLoad(999 * MS, 1000 * MS, 4);
    assertEquals(2, t.level, "1000 base buckets need width 4 ms to fit in 256");
    assertTrue(t.buckets.lastKey() - t.buckets.firstKey() + 1 <= LoadTimeline.MAX_BUCKETS);
    long thread = t.buckets.values().stream().mapToLong(b -> b.threadNs).sum();
    assertEquals(10 * MS + 4 * MS, thread);
    assertEquals(250_000L, t.buckets.get(1L).functionCpuNs.get("f"));
  }

  @Test
  void mergingInAnyOrderGivesTheSameTimeline() {
    LoadTimeline early = new LoadTimeline();
    early.addLoad(0, 3 * MS, 2);
    LoadTimeline late = new LoadTimeline();
    late.addLoad(700 * MS, 701 * MS, 1);
    late.addSample(700 * MS, "g", MS);
    LoadTimeline middle = new LoadTimeline();
    middle.addLoad(300 * MS, 300 * MS + 10, 5);
    String a = canonical(new LoadTimeline().mergeFrom(early).mergeFrom(late).mergeFrom(middle));
    String b = canonical(new LoadTimeline().mergeFrom(middle).mergeFrom(early).mergeFrom(late));
    String whole;
    LoadTimeline one = new LoadTimeline();
    one.addLoad(0, 3 * MS, 2);
    one.addLoad(300 * MS, 300 * MS + 10, 5);
    one.addLoad(700 * MS, 701 * MS, 1);
    one.addSample(700 * MS, "g", MS);
    whole = canonical(one);
    assertEquals(whole, a);
    assertEquals(whole, b);
  }

  /** The example trace: the same buckets whatever the window, and the sums of time_at_load. */
  @Test
  void exampleTraceTimelineIsIndependentOfTheWindowAndMatchesTimeAtLoad() throws IOException {
    Path trace = Path.of("..", "examples", "phases.txt.gz");
    ProcessAccumulator oneSecond = phasesProcess(trace, 1000 * MS);
    String expected = canonical(oneSecond.timeline);
    for (long windowMs : new long[] {37, 250, 3000}) {
      assertEquals(expected, canonical(phasesProcess(trace, windowMs * MS).timeline),
          "window " + windowMs + " ms");
    }
    LoadTimeline t = oneSecond.timeline;
    long busy = 0;
    long thread = 0;
    for (int k = 1; k < oneSecond.timeAtLoadNs.length; k++) {
      busy += oneSecond.timeAtLoadNs[k];
      thread += k * oneSecond.timeAtLoadNs[k];
    }
    assertEquals(busy, t.buckets.values().stream().mapToLong(b -> b.busyNs).sum());
    assertEquals(thread, t.buckets.values().stream().mapToLong(b -> b.threadNs).sum());
    long sampledCpu = t.buckets.values().stream()
        .flatMap(b -> b.functionCpuNs.values().stream()).mapToLong(Long::longValue).sum();
    assertEquals(oneSecond.stacks.values().stream().mapToLong(w -> w[1]).sum(), sampledCpu);
    // The run's phases: serial_phase's samples come before parallel_phase's, tail_serial last.
    assertTrue(firstBucketOf(t, "serial_phase") < firstBucketOf(t, "parallel_phase"));
    assertTrue(firstBucketOf(t, "parallel_phase") < firstBucketOf(t, "tail_serial"));
  }

  private static long firstBucketOf(LoadTimeline t, String function) {
    for (Map.Entry<Long, LoadTimeline.Bucket> e : t.buckets.entrySet()) {
      if (e.getValue().functionCpuNs.getOrDefault(function, 0L) > 10 * MS) {
        return e.getKey();
      }
    }
    throw new AssertionError(function + " never ran");
  }

  private static ProcessAccumulator phasesProcess(Path trace, long windowNs) throws IOException {
    try (InputStream in = TraceFiles.open(trace)) {
      InMemoryAnalysis a = InMemoryAnalysis.of(new PerfScriptParser(), in, "phases", windowNs);
      return a.processes.values().stream()
          .filter(p -> a.run.processName(p.pid).equals("phases"))
          .findFirst().orElseThrow();
    }
  }
}
