package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The lanes' bookkeeping: the CPUs samples name, and events that wait for the kind. */
class LanesTest {
  @Test
  void threadLanesCountEveryCpuTheSamplesNamedWhateverTheirOrder() {
    Random r = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      Lanes lanes = new Lanes();
      Set<Integer> named = new TreeSet<>();
      int cpus = 1 + r.nextInt(6);
      for (int i = 0, n = r.nextInt(50); i < n; i++) {
        // runs of one CPU, as samples come, and CPU 0 (the first value the cache could hold)
        int cpu = r.nextInt(4) == 0 ? 0 : r.nextInt(cpus) * 3;
        for (int k = r.nextInt(4); k >= 0; k--) {
          lanes.noteSampleCpu(cpu);
          named.add(cpu);
        }
      }
      lanes.decide(Lanes.Kind.THREADS);
      assertEquals(named.size(), lanes.cpuCount(99), named.toString());
    }
  }

  @Test
  void eventsWaitForTheKindAndRunAtOnceAfterIt() {
    Lanes lanes = new Lanes();
    List<Integer> ran = new ArrayList<>();
    assertFalse(lanes.isKnown());
    lanes.whenKnown(() -> ran.add(1));
    lanes.whenKnown(() -> ran.add(2));
    assertEquals(List.of(), ran);
    lanes.decide(Lanes.Kind.CPUS);
    assertTrue(lanes.isKnown());
    assertEquals(List.of(1, 2), ran);
    lanes.whenKnown(() -> ran.add(3));
    assertEquals(List.of(1, 2, 3), ran);
  }

  @Test
  void aRecordPassesTheFarJumpGateExactlyWhenItIsNeitherFarBehindNorToBeOffered() {
    Random r = new Random(7);
    long jump = 1_000;
    for (int trial = 0; trial < 2_000; trial++) {
      FarJumpGate gate = new FarJumpGate(jump);
      boolean sawRecord = r.nextBoolean();
      long last = r.nextInt(10_000);
      if (r.nextInt(4) == 0) {
        gate.offer(last, last + 5 * jump, new FarJumpGate.Held() { // one record held back
          @Override
          public void accept() {}

          @Override
          public void reject() {}
        });
      }
      long[] times = {last, last + jump, last + jump + 1, last - jump, last - jump - 1,
          last + r.nextInt(4_000) - 2_000, Long.MAX_VALUE, Long.MIN_VALUE};
      for (long t : times) {
        assertEquals(!gate.farBehind(sawRecord, last, t) && !gate.mustOffer(sawRecord, last, t),
            gate.passes(sawRecord, last, t), "t=" + t);
      }
    }
  }
}
