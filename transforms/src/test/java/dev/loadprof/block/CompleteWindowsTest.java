package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A window announced complete never gets another block (a reader that joined it early would
 * split its load), and windows are announced while the trace is read, not only at its end.
 */
class CompleteWindowsTest {
  private static final long MS = 1_000_000L;
  private static final long WINDOW = 10 * MS;
  private static final Frame[] NO_STACK = new Frame[0];

  /** What the builder handed on, in order: the blocks' windows and the announcements. */
  private static final class Seen {
    final List<String> order = new ArrayList<>();
    long announced = Long.MIN_VALUE;
    int announcements;
    int blocksAfterAnnouncements;
    final List<String> late = new ArrayList<>();

    BlockBuilder builder() {
      BlockBuilder b = new BlockBuilder("run", "t.txt", WINDOW, null, block -> {
        if (block.window < announced) {
          late.add("CPU/lane " + block.cpu + " window " + block.window + " after " + announced);
        }
        if (announcements > 0) {
          blocksAfterAnnouncements++;
        }
        order.add("block " + block.window);
      });
      b.onWindowsComplete(w -> {
        assertTrue(w > announced, "announcements only go forward");
        announced = w;
        announcements++;
        order.add("complete " + w);
      });
      return b;
    }
  }

  @Test
  void aSilentCpuHoldsItsWindowOpenUntilItRecordsAgain() {
    Seen seen = new Seen();
    BlockBuilder b = seen.builder();
    b.schedSwitch(0, 0, 1, 0, 0, "swapper/0", "R", 10, "a", NO_STACK); // CPU lanes from here
    b.sample(1 * MS, 2, 30, 30, "c", "cpu-clock", MS, NO_STACK); // CPU 2, then silent until 95 ms
    for (long t = 1; t < 95; t++) {
      b.sample(t * MS + 1, 0, 10, 10, "a", "cpu-clock", MS, NO_STACK);
      b.sample(t * MS + 2, 1, 20, 20, "b", "cpu-clock", MS, NO_STACK);
    }
    assertTrue(seen.announced <= 0, "CPU 2's window 0 is still open: " + seen.order);
    b.sample(95 * MS, 2, 30, 30, "c", "cpu-clock", MS, NO_STACK);
    // windows 0-7 are complete: the latest record (95 ms) lets a new CPU start in window 8
    assertEquals(8, seen.announced, seen.order.toString());
    b.finish();
    assertEquals(List.of(), seen.late);
  }

  @Test
  void aCpuFirstSeenLateMayStartOneWindowBehindTheLatestRecord() {
    Seen seen = new Seen();
    BlockBuilder b = seen.builder();
    b.schedSwitch(0, 0, 1, 0, 0, "swapper/0", "R", 10, "a", NO_STACK); // CPU lanes from here
    for (long t = 0; t < 50; t++) {
      b.sample(t * MS, 0, 10, 10, "a", "cpu-clock", MS, NO_STACK);
    }
    long before = seen.announced;
    assertTrue(before >= 3 && before <= 4, seen.order.toString());
    b.sample(41 * MS, 1, 20, 20, "b", "cpu-clock", MS, NO_STACK); // 8 ms behind, a new CPU
    b.sample(51 * MS, 0, 10, 10, "a", "cpu-clock", MS, NO_STACK);
    b.finish();
    assertEquals(List.of(), seen.late);
  }

  /** Many CPUs, records out of order within a window, long silences, switches and wakeups. */
  @Test
  void noBlockComesForAWindowAnnouncedCompleteOnRandomTraces() {
    for (int seed = 1; seed <= 40; seed++) {
      Random r = new Random(seed);
      Seen seen = new Seen();
      BlockBuilder b = seen.builder();
      int cpus = 1 + r.nextInt(8);
      long t = r.nextInt(1000) * MS;
      for (int i = 0; i < 3000; i++) {
        t += r.nextInt(r.nextInt(20) == 0 ? 40 : 3) * MS / 2; // now and then silent for 20 ms
        long at = Math.max(0, t - r.nextInt((int) WINDOW)); // up to a window behind
        int cpu = r.nextInt(cpus);
        int tid = 100 + r.nextInt(6);
        switch (r.nextInt(3)) {
          case 0 -> b.sample(at, cpu, 100, tid, "p", "cpu-clock", MS / 2, NO_STACK);
          case 1 -> b.schedSwitch(at, cpu, 1, 100, tid, "p", "S", 100 + r.nextInt(6), "p",
              NO_STACK);
          default -> b.schedWakeup(at, cpu, 100, tid, 100 + r.nextInt(6), "p", cpu);
        }
      }
      b.finish();
      assertEquals(List.of(), seen.late, "seed " + seed);
      assertTrue(seen.announcements > 0 && seen.blocksAfterAnnouncements > 0,
          "seed " + seed + ": windows are announced while the trace is read");
    }
  }
}
