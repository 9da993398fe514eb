package dev.loadprof.report.html;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.critical.CriticalPath;
import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** report.html's critical-path data: the pieces drawn over the lanes, the flame tree, the table. */
class CriticalHtmlTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MS = 1_000_000;

  /** main runs, waits on worker 11 (a hop), worker runs, main is woken and runs to the end. */
  static CriticalPath path() {
    List<PathSegment> segments = List.of(
        new PathSegment(10, 0, 40 * MS, Kind.RUNNING, ""),
        new PathSegment(11, 40 * MS, 70 * MS, Kind.RUNNING, ""),
        new PathSegment(11, 70 * MS, 75 * MS, Kind.RUNNABLE_OTHER, "process cpuhog"),
        new PathSegment(10, 75 * MS, 90 * MS, Kind.BLOCKED, "timer"),
        new PathSegment(10, 90 * MS, 100 * MS, Kind.RUNNING, ""));
    CallStack serial = new CallStack(new Frame[] {new Frame("serial", "app"),
        new Frame("main", "app")});
    CallStack work = new CallStack(new Frame[] {new Frame("work", "app"),
        new Frame("start_thread", "libc.so.6")});
    return new CriticalPath(0, 100 * MS, segments,
        List.of(new CriticalPath.FunctionOnPath("serial", 50 * MS, 0.5, 50 * MS)),
        List.of(new CriticalPath.ThreadShare(10, "app", 65 * MS),
            new CriticalPath.ThreadShare(11, "app", 35 * MS)),
        Map.of("timer", 15 * MS), 80 * MS, 0, 5 * MS,
        List.of(new CriticalPath.WhatIf("serial", 10, 95 * MS, -5 * MS),
            new CriticalPath.WhatIf("serial", 25, 88 * MS, -12 * MS),
            new CriticalPath.WhatIf("work", 25, 100 * MS, 0)),
        Map.of(), List.of(new CriticalPath.StackOnPath(10, serial, 50 * MS),
            new CriticalPath.StackOnPath(11, work, 30 * MS)),
        List.of(new CriticalPath.WaitOnPath(10, Kind.BLOCKED, "timer", new CallStack(new Frame[] {
            new Frame("do_nanosleep", "[kernel.kallsyms]")}), 15 * MS),
            new CriticalPath.WaitOnPath(11, Kind.RUNNABLE_OTHER, "process cpuhog",
                new CallStack(new Frame[0]), 5 * MS)),
        List.of());
  }

  @Test
  void fewSegmentsStayAsTheyAreOnTheirThreads() {
    List<long[]> pieces = CriticalHtml.pieces(path().segments(), 0, MS);
    assertEquals(5, pieces.size());
    assertArrayEquals(new long[] {10, 0, 40 * MS, 0}, pieces.get(0));
    assertArrayEquals(new long[] {11, 40 * MS, 70 * MS, 0}, pieces.get(1));
    assertArrayEquals(new long[] {11, 70 * MS, 75 * MS, 2}, pieces.get(2));
    assertArrayEquals(new long[] {10, 90 * MS, 100 * MS, 0}, pieces.get(4));
    assertEquals(2, CriticalHtml.hops(path().segments()));
  }

  /** 100 000 segments alternating between two threads: at most MAX_PIECES pieces drawn. */
  @Test
  void manySegmentsAreBoundedByThreadThatHeldMostOfEachSlot() {
    List<PathSegment> many = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      // tid 1 holds 7 of every 10 us, tid 2 the other 3
      many.add(new PathSegment(1, i * 10_000L, i * 10_000L + 7_000, Kind.RUNNING, ""));
      many.add(new PathSegment(2, i * 10_000L + 7_000, (i + 1) * 10_000L, Kind.BLOCKED, "io"));
    }
    long width = CriticalHtml.pieceWidth(1_000_000_000L);
    assertEquals(500_000, width, "1 s in slots of 0.5 ms: 2000");
    List<long[]> pieces = CriticalHtml.pieces(many, 0, width);
    assertEquals(1, pieces.size(), "thread 1 holds most of every slot: one piece");
    assertArrayEquals(new long[] {1, 0, 1_000_000_000L, 0}, pieces.get(0));
    assertEquals(199_999, CriticalHtml.hops(many));
  }

  @Test
  void theDataHasTheFiguresFlameAndWhatIfs() {
    StringTable strings = new StringTable();
    ObjectNode process = JSON.createObjectNode();
    CriticalHtml.writeTo(process, path(), true, null, Map.of(10, "app (main) · serial"), strings);
    JsonNode cp = process.get("critical");
    assertEquals(100 * MS, cp.get("path_ns").asLong());
    assertEquals(15 * MS, cp.get("blocked_ns").get("timer").asLong());
    assertEquals("app (main) · serial", cp.get("threads").get(0).get("name").asText());
    assertEquals("runnable_other", cp.get("kinds").get(2).asText());
    assertEquals(3, cp.get("what_if").size());
    assertEquals(-12.0, cp.get("what_if").get(1).get(4).asDouble(), 1e-9, "% of the span");
    assertEquals(CriticalPath.MODEL_LIMITS, cp.get("model").asText());
    assertEquals(0, cp.get("notes").size());
    // The same path of a run without wake-ups says its waits were not followed.
    RunInfo noWakeUps = new RunInfo();
    noWakeUps.runId = "r2";
    ObjectNode other = JSON.createObjectNode();
    CriticalHtml.writeTo(other, path(), true, noWakeUps, Map.of(), new StringTable());
    assertTrue(other.get("critical").get("notes").get(0).asText().startsWith("Run r2 has no"
        + " sched:sched_wakeup records"), other.toString());
    // ... and where the what-if table would be, why there is none (not "nothing to speed up").
    assertTrue(other.get("critical").get("what_if_absent").asText().startsWith("No what-ifs:"
        + " without wake-up records"), other.toString());
    assertTrue(cp.get("what_if_absent").asText().startsWith("No function with at least 1 %"),
        cp.toString());
    // The flame tree: all 100 ms of the path, 80 of them on CPU; the waits under their name.
    JsonNode flame = cp.get("flame");
    assertEquals(100 * MS, flame.get(1).get(0).asLong());
    assertEquals(80 * MS, flame.get(1).get(1).asLong());
    ArrayNodeNames names = new ArrayNodeNames(strings);
    List<String> top = new ArrayList<>();
    flame.get(2).forEach(c -> top.add(names.of(c.get(0).asInt())));
    assertTrue(top.containsAll(List.of("main", "start_thread", "[blocked: timer]",
        "[waiting for a CPU: process cpuhog]")), top.toString());
  }

  @Test
  void withoutAPathOneLineSaysWhy() {
    ObjectNode process = JSON.createObjectNode();
    RunInfo run = new RunInfo();
    run.runId = "r1";
    run.health.add(TraceHealth.SWITCH_RECORDS, 100);
    CriticalHtml.writeTo(process, null, true, run, Map.of(), new StringTable());
    assertTrue(process.get("critical").isNull());
    assertTrue(process.get("critical_absent").asText().contains("no sched:sched_wakeup records"),
        process.toString());
    CriticalHtml.writeTo(process, null, false, run, Map.of(), new StringTable());
    assertTrue(process.get("critical_absent").asText().contains("subject"));
  }

  /** The string table's names by index. */
  private record ArrayNodeNames(List<String> all) {
    ArrayNodeNames(StringTable t) {
      this(names(t));
    }

    private static List<String> names(StringTable t) {
      var a = JSON.createArrayNode();
      t.writeTo(a);
      List<String> out = new ArrayList<>();
      a.forEach(n -> out.add(n.asText()));
      return out;
    }

    String of(int i) {
      return all.get(i);
    }
  }
}
