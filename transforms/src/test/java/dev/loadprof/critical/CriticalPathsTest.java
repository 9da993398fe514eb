package dev.loadprof.critical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.wall.ThreadMarks;
import dev.loadprof.wall.ThreadStates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The critical path and its what-ifs on hand-built marks of small programs whose answer is known
 * by hand: fork-join, a lock convoy, a producer and its consumer, a program bounded by a sleep.
 * Times in ms.
 */
class CriticalPathsTest {
  static final long MS = 1_000_000L;
  static final int PID = 100;

  static long ms(double v) {
    return ProgramMarks.ms(v);
  }

  /** A case: a program, its path's threads in order, and what-ifs with the span they predict. */
  record Case(String name, ProgramMarks program, long spanMs, List<Integer> pathThreads,
      Map<String, Long> blockedMs, List<Object[]> whatIfs) {}

  static Stream<Arguments> cases() {
    List<Case> cases = new ArrayList<>();
    // Fork-join: main's serial part, two workers (20 and 40 ms), joined one after the other,
    // then main's second serial part.
    cases.add(new Case("fork-join",
        new ProgramMarks().run(100, 0, 10, "serial", "main").fork(101, 10, 100).fork(102, 10, 100)
            .out(100, 10, 'S', "futex_wait")
            .run(101, 10, 30, "work_a", "worker").out(101, 30, 'X', null)
            .run(102, 10, 50, "work_b", "worker").out(102, 50, 'X', null)
            .wake(100, 30, PID, 101).run(100, 30, 30.5, "join", "main")
            .out(100, 30.5, 'S', "futex_wait").wake(100, 50, PID, 102)
            .run(100, 50, 60, "serial", "main"),
        60, List.of(100, 102, 100), Map.of(),
        List.<Object[]>of(new Object[] {"work_a", 50, 60.0}, // not on the path: no gain
            new Object[] {"work_b", 25, 50.0}, // 40 -> 30 ms
            new Object[] {"work_b", 50, 40.5}, // 40 -> 20: now work_a's 20 ms bounds it
            new Object[] {"work_b", 90, 40.5}, // no more gain past the other branch
            new Object[] {"serial", 50, 50.0})));
    // Lock convoy: A holds the lock over [5, 10) (its critical section "cs") and wakes B, who
    // waited for it since 2 ms and then runs its critical section [10, 20).
    cases.add(new Case("lock convoy",
        new ProgramMarks().run2(1, 0, 10, "outside", "cs", "worker").run(1, 10, 15, "outside", "worker")
            .out(1, 15, 'X', null)
            .run(2, 0, 2, "outside", "worker").out(2, 2, 'S', "futex_wait").wake(2, 10, PID, 1)
            .run(2, 10, 20, "cs", "worker").out(2, 20, 'X', null),
        20, List.of(1, 2), Map.of(),
        List.<Object[]>of(new Object[] {"cs", 50, 12.5}, new Object[] {"outside", 50, 17.5})));
    // Producer-consumer: the producer makes an item each 4 ms, the consumer takes 2 ms each.
    cases.add(new Case("producer-consumer",
        new ProgramMarks().run(1, 0, 8, "produce", "producer").out(1, 8, 'X', null)
            .wake(2, 4, PID, 1).wake(2, 8, PID, 1)
            .out(2, 0, 'S', "futex_wait").run(2, 4, 6, "consume", "consumer")
            .out(2, 6, 'S', "futex_wait").run(2, 8, 10, "consume", "consumer")
            .out(2, 10, 'X', null),
        10, List.of(1, 2), Map.of(),
        List.<Object[]>of(new Object[] {"consume", 50, 9.0}, new Object[] {"produce", 50, 6.0})));
    // A sleep of 10 ms between two 2 ms runs: the timer bounds it.
    cases.add(new Case("sleep",
        new ProgramMarks().run(100, 0, 2, "work", "main").out(100, 2, 'S', "do_nanosleep")
            .wake(100, 12, 0, 0).run(100, 12, 14, "work", "main").out(100, 14, 'X', null),
        14, List.of(100), Map.of("timer", 10L),
        List.<Object[]>of(new Object[] {"work", 50, 12.0})));
    // Woken by another process: the walk ends there, with its name.
    cases.add(new Case("another process",
        new ProgramMarks().run(100, 0, 2, "work", "main").out(100, 2, 'S', "pipe_read")
            .wake(100, 5, 7, 70).run(100, 5, 6, "work", "main").out(100, 6, 'X', null),
        6, List.of(100), Map.of("process noise", 3L),
        List.<Object[]>of(new Object[] {"work", 50, 4.5})));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void pathAndWhatIfs(String name, Case c) {
    List<WhatIfRequest> asked = new ArrayList<>();
    for (Object[] w : c.whatIfs()) {
      asked.add(new WhatIfRequest("^" + w[0] + "$", (Integer) w[1]));
    }
    CriticalPath p = c.program().path(asked);
    assertNotNull(p);
    assertEquals(ms(c.spanMs()), p.spanNs(), "span");
    assertEquals(p.spanNs(), p.pathNs(), "the path's length is the span");
    List<Integer> threads = new ArrayList<>();
    long at = p.spanStartNs;
    for (PathSegment s : p.segments()) {
      assertEquals(at, s.startNs(), "segments cover the span: " + p.segments());
      at = s.endNs();
      if (s.kind() == Kind.RUNNING
          && (threads.isEmpty() || threads.get(threads.size() - 1) != s.tid())) {
        threads.add(s.tid());
      }
    }
    assertEquals(c.pathThreads(), threads, "threads on the path: " + p.segments());
    Map<String, Long> blocked = new HashMap<>();
    p.blockedByReason().forEach((k, v) -> blocked.put(k, v / MS));
    assertEquals(c.blockedMs(), blocked);
    int k = p.whatIfs().size() - asked.size();
    for (Object[] w : c.whatIfs()) {
      CriticalPath.WhatIf got = p.whatIfs().get(k++);
      assertEquals(ms((Double) w[2]), got.predictedWallNs(), 1,
          w[0] + " " + w[1] + " %: " + got);
      assertEquals(got.predictedWallNs() - p.spanNs(), got.changeNs());
    }
    assertTrue(p.onCpuNs() + p.runnableOwnNs() + p.runnableOtherNs() + p.blockedNs()
        == p.pathNs());
  }

  /**
   * The same marks added in another order (as windows merged in another order add them): the
   * same path, profile and what-ifs.
   */
  @org.junit.jupiter.api.Test
  void theOrderOfTheMarksChangesNothing() {
    List<WhatIfRequest> asked = List.of(new WhatIfRequest("work", 50));
    CriticalPath a = new ProgramMarks().run(100, 0, 10, "serial", "main").fork(101, 10, 100)
        .fork(102, 10, 100).out(100, 10, 'S', "futex_wait")
        .run(101, 10, 30, "work_a", "worker").out(101, 30, 'X', null)
        .run(102, 10, 50, "work_b", "worker").out(102, 50, 'X', null)
        .wake(100, 30, PID, 101).run(100, 30, 30.5, "join", "main")
        .out(100, 30.5, 'S', "futex_wait").wake(100, 50, PID, 102)
        .run(100, 50, 60, "serial", "main").path(asked);
    CriticalPath b = new ProgramMarks().run(102, 10, 50, "work_b", "worker")
        .run(100, 50, 60, "serial", "main").wake(100, 50, PID, 102)
        .out(102, 50, 'X', null).run(101, 10, 30, "work_a", "worker")
        .out(100, 30.5, 'S', "futex_wait").run(100, 30, 30.5, "join", "main")
        .wake(100, 30, PID, 101).out(101, 30, 'X', null).fork(102, 10, 100)
        .out(100, 10, 'S', "futex_wait").run(100, 0, 10, "serial", "main").fork(101, 10, 100)
        .path(asked);
    assertEquals(a.segments(), b.segments());
    assertEquals(a.topFunctions(), b.topFunctions());
    assertEquals(a.whatIfs(), b.whatIfs());
    assertEquals(a.foldedNs(), b.foldedNs());
    assertEquals(a.waits(), b.waits());
    assertEquals(a.threads(), b.threads());
    assertEquals(a.stacks(), b.stacks());
  }

  /**
   * Unasked what-ifs are for functions with at least 1 % of the path: fork-join's "join" (0.5 of
   * 60 ms) would print a meaningless "gains nothing"; work_b and serial are predicted.
   */
  @org.junit.jupiter.api.Test
  void functionsWithLittleOfThePathGetNoUnaskedWhatIf() {
    CriticalPath p = new ProgramMarks().run(100, 0, 10, "serial", "main").fork(101, 10, 100)
        .fork(102, 10, 100).out(100, 10, 'S', "futex_wait")
        .run(101, 10, 30, "work_a", "worker").out(101, 30, 'X', null)
        .run(102, 10, 50, "work_b", "worker").out(102, 50, 'X', null)
        .wake(100, 30, PID, 101).run(100, 30, 30.5, "join", "main")
        .out(100, 30.5, 'S', "futex_wait").wake(100, 50, PID, 102)
        .run(100, 50, 60, "serial", "main").path(List.of());
    List<String> predicted = p.whatIfs().stream().map(CriticalPath.WhatIf::function).distinct()
        .toList();
    assertTrue(predicted.contains("work_b") && predicted.contains("serial"), predicted::toString);
    assertTrue(!predicted.contains("join"), predicted::toString);
  }

  /**
   * Without wake-up records a wait is a fixed edge: a per-process recording of mixed printed
   * "if serial_section were 50 % faster: -0.3 ms" for 50 ms of serial work removed. No unasked
   * what-if then, and an asked one comes with a note that it may be far off.
   */
  @org.junit.jupiter.api.Test
  void withoutWakeUpRecordsNoUnaskedWhatIfAndAnAskedOneIsFlagged() {
    java.util.function.Supplier<ProgramMarks> program = () -> new ProgramMarks()
        .run(100, 0, 10, "serial", "main").fork(101, 10, 100)
        .out(100, 10, 'S', "futex_wait")
        .run(101, 10, 30, "work", "worker").out(101, 30, 'X', null)
        .run(100, 30, 40, "serial", "main");
    CriticalPath unasked = program.get().path(List.of(), false);
    assertTrue(unasked.whatIfs().isEmpty(), unasked.whatIfs()::toString);
    assertTrue(unasked.notes().stream().anyMatch(n -> n.startsWith("no what-ifs: without"
        + " wake-up records")), unasked.notes()::toString);
    CriticalPath asked = program.get().path(List.of(WhatIfRequest.parse("^serial$=50%")), false);
    assertEquals(1, asked.whatIfs().size(), asked.whatIfs()::toString);
    assertTrue(asked.notes().stream().anyMatch(n -> n.startsWith("the what-ifs keep every wait"
        + " as long as it was")), asked.notes()::toString);
    CriticalPath withWakers = program.get().path(List.of());
    assertTrue(!withWakers.whatIfs().isEmpty(), "with wake-up records the top functions get"
        + " what-ifs");
  }
}
