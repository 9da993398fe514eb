package dev.loadprof.critical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loadprof.critical.CriticalPath.FunctionOnPath;
import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.critical.CriticalPath.StackOnPath;
import dev.loadprof.critical.CriticalPath.ThreadShare;
import dev.loadprof.critical.CriticalPath.WaitOnPath;
import dev.loadprof.critical.CriticalPath.WhatIf;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.testtools.JavaSerialization;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A critical path serialized (a run's stored figures hold its processes' paths) reads back with
 * every field the same, its maps in their order; damaged bytes are refused, not misread.
 */
class CriticalPathCodecTest {
  static byte[] serialized(Object o) throws IOException {
    return JavaSerialization.bytes(o);
  }

  static Object read(byte[] bytes) throws IOException, ClassNotFoundException {
    return JavaSerialization.read(bytes);
  }

  static CriticalPath path() {
    Frame work = new Frame("work", "/usr/bin/app", 0x1234);
    Frame main = new Frame("main", "/usr/bin/app", 0x10);
    Frame futex = new Frame("futex_wait", "[kernel.kallsyms]", 0xffffffff81000000L);
    CallStack onCpu = new CallStack(new Frame[] {work, main});
    CallStack waited = new CallStack(new Frame[] {futex, new Frame("", null), main});
    Map<String, Long> blocked = new LinkedHashMap<>(); // most first, not sorted by name
    blocked.put("timer", 900L);
    blocked.put("io", 500L);
    blocked.put("process élan", 1L);
    return new CriticalPath(1_000, 9_000,
        List.of(new PathSegment(11, 1_000, 4_000, Kind.RUNNING, ""),
            new PathSegment(12, 4_000, 5_000, Kind.BLOCKED, "timer"),
            new PathSegment(11, 5_000, 9_000, Kind.RUNNABLE_OTHER, "process élan")),
        List.of(new FunctionOnPath("work", 3_000, 0.375, 2_500),
            new FunctionOnPath("main", 3_100, 0.3875, 0)),
        List.of(new ThreadShare(11, "app", 7_000), new ThreadShare(12, "app-worker", 1_000)),
        blocked, 3_000, 17, 4_000,
        List.of(new WhatIf("work", 10, 8_700, -300), new WhatIf("work", 50, 7_500, -1_500)),
        Map.of("main;work", 3_000L, "[blocked: timer]", 1_000L),
        List.of(new StackOnPath(11, onCpu, 3_000), new StackOnPath(12, onCpu, 5)),
        List.of(new WaitOnPath(12, Kind.BLOCKED, "timer", waited, 1_000),
            new WaitOnPath(11, Kind.RUNNABLE_OWN, "", null, 20)),
        List.of("3 wake-ups not followed: no wakeup records", "a second note"));
  }

  static void assertSamePath(CriticalPath expected, CriticalPath actual) {
    assertEquals(expected.spanStartNs, actual.spanStartNs);
    assertEquals(expected.spanEndNs, actual.spanEndNs);
    assertEquals(expected.segments(), actual.segments());
    assertEquals(expected.topFunctions(), actual.topFunctions());
    assertEquals(expected.threads(), actual.threads());
    assertEquals(List.copyOf(expected.blockedByReason().entrySet()),
        List.copyOf(actual.blockedByReason().entrySet()));
    assertEquals(expected.onCpuNs(), actual.onCpuNs());
    assertEquals(expected.runnableOwnNs(), actual.runnableOwnNs());
    assertEquals(expected.runnableOtherNs(), actual.runnableOtherNs());
    assertEquals(expected.whatIfs(), actual.whatIfs());
    assertEquals(List.copyOf(expected.foldedNs().entrySet()),
        List.copyOf(actual.foldedNs().entrySet()));
    assertEquals(expected.stacks(), actual.stacks());
    assertEquals(expected.waits(), actual.waits());
    assertEquals(expected.notes(), actual.notes());
  }

  @Test
  void aPathReadsBackWithEveryFieldAndItsMapsInOrder() throws Exception {
    CriticalPath p = path();
    CriticalPath back = (CriticalPath) read(serialized(p));
    assertSamePath(p, back);
    assertArrayEquals(p.stacks().get(0).stack().frames(), back.stacks().get(0).stack().frames());
    assertEquals("[unknown]", back.waits().get(0).stack().frames()[1].symbol());
  }

  @Test
  void anEmptyPathReadsBack() throws Exception {
    CriticalPath empty = new CriticalPath(5, 5, List.of(), List.of(), List.of(), Map.of(), 0,
        0, 0, List.of(), Map.of(), List.of(), List.of(), List.of());
    assertSamePath(empty, (CriticalPath) read(serialized(empty)));
  }

  /** Written compactly: no record classes in the stream, each string once. */
  @Test
  void thePathIsWrittenAsNumbersAndEachStringOnce() throws Exception {
    String stream = new String(serialized(path()), StandardCharsets.ISO_8859_1);
    assertFalse(stream.contains("PathSegment"), "records serialized one by one");
    assertFalse(stream.contains("dev.loadprof.model.Frame"), "frames serialized one by one");
    assertEquals(stream.indexOf("/usr/bin/app"), stream.lastIndexOf("/usr/bin/app"));
  }

  @Test
  void damagedBytesAreRefusedNotMisread() throws Exception {
    byte[] good = CriticalPathCodec.encode(path());
    for (int cut : new int[] {0, 7, good.length / 2, good.length - 1}) {
      byte[] stream = serialized(new CriticalPathCodec.Compact(Arrays.copyOf(good, cut)));
      assertThrows(InvalidObjectException.class, () -> read(stream), "cut at " + cut);
    }
    byte[] longer = serialized(new CriticalPathCodec.Compact(Arrays.copyOf(good,
        good.length + 1)));
    assertThrows(InvalidObjectException.class, () -> read(longer));
    byte[] badCount = good.clone();
    badCount[16] = (byte) 0x7f; // the segments' count, now far more than the bytes left
    byte[] stream = serialized(new CriticalPathCodec.Compact(badCount));
    InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> read(stream));
    assertInstanceOf(IOException.class, e.getCause());
  }
}
