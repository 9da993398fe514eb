package dev.loadprof.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.profile.ProcessLoad;
import org.junit.jupiter.api.Test;

/** Sums never wrap: an overflow is capped at Long.MAX_VALUE and counted (sums_saturated). */
class ProcessAccumulatorTest {
  private static final CallStack MAIN = new CallStack(new Frame[] {new Frame("main", "app")});
  private static final long HUGE = Long.MAX_VALUE / 2 + 1;

  @Test
  void aCpuSumThatWouldWrapIsCappedAndCounted() {
    ProcessAccumulator acc = new ProcessAccumulator("r", 7);
    acc.addSample(7, 1, HUGE, MAIN);
    acc.addSample(7, 1, HUGE, MAIN); // HUGE + HUGE wraps to Long.MIN_VALUE
    assertEquals(Long.MAX_VALUE, acc.cpuNsAtLoad[1]);
    assertEquals(2, acc.health.get(ProcessAccumulator.SUMS_SATURATED)); // load row and stack
    assertEquals(Long.MAX_VALUE, acc.toStackWeights().get(0).cpuNs());
    ProcessLoad p = acc.toProcessLoad("app");
    assertEquals(Long.MAX_VALUE, p.cpuNs);
  }

  @Test
  void sumsOverLoadsAndMergesAreCappedToo() {
    ProcessAccumulator a = new ProcessAccumulator("r", 7);
    a.addSample(7, 1, HUGE, MAIN);
    a.addSample(7, 2, HUGE, MAIN);
    a.addTimeAtLoad(1, HUGE);
    a.extendSpan(0, 10);
    assertNull(a.health.get(ProcessAccumulator.SUMS_SATURATED), "no single sum overflowed");
    ProcessLoad p = a.toProcessLoad("app");
    assertEquals(Long.MAX_VALUE, p.cpuNs, "the total over loads is capped, not wrapped");
    assertEquals(1L, p.health.get(ProcessAccumulator.SUMS_SATURATED));
    assertFalse(a.health.containsKey(ProcessAccumulator.SUMS_SATURATED),
        "rendering does not change the accumulator");

    ProcessAccumulator b = new ProcessAccumulator("r", 7);
    b.addTimeAtLoad(1, HUGE);
    a.mergeFrom(b);
    assertEquals(Long.MAX_VALUE, a.timeAtLoadNs[1]);
    assertEquals(1L, a.health.get(ProcessAccumulator.SUMS_SATURATED));
  }

  @Test
  void ordinarySumsAreExact() {
    ProcessAccumulator acc = new ProcessAccumulator("r", 7);
    acc.addSample(7, 1, 3, MAIN);
    acc.addSample(7, 1, 4, MAIN);
    assertEquals(7, acc.cpuNsAtLoad[1]);
    assertNull(acc.health.get(ProcessAccumulator.SUMS_SATURATED));
  }

  /** What a record of the same components hashes to and compares by, to check LoadStack's own. */
  private record Plain(int tid, int load, CallStack stack) {}

  @Test
  void loadStackHashesAndComparesAsTheRecordWould() {
    java.util.Random r = new java.util.Random(5);
    CallStack other = new CallStack(new Frame[] {new Frame("f", "lib", 0x10), MAIN.frames()[0]});
    for (int i = 0; i < 1000; i++) {
      int tid = r.nextInt(3) == 0 ? -1 : r.nextInt(100_000);
      int load = r.nextInt(64);
      CallStack stack = switch (r.nextInt(3)) {
        case 0 -> MAIN;
        case 1 -> other;
        default -> null;
      };
      ProcessAccumulator.LoadStack k = new ProcessAccumulator.LoadStack(tid, load, stack);
      assertEquals(new Plain(tid, load, stack).hashCode(), k.hashCode(), k.toString());
      ProcessAccumulator.LoadStack same = new ProcessAccumulator.LoadStack(tid, load,
          stack == null ? null : new CallStack(stack.frames().clone()));
      assertEquals(k, same);
      assertNotEquals(k, new ProcessAccumulator.LoadStack(tid, load + 1, stack));
      assertNotEquals(k, new ProcessAccumulator.LoadStack(tid + 1, load, stack));
      assertNotEquals(k, new ProcessAccumulator.LoadStack(tid, load, stack == MAIN ? other : MAIN));
    }
  }
}
