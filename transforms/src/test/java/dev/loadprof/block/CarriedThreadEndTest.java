package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A CPU that records nothing for longer than a running thread is carried (FAR_NS, 10 s) ends the
 * thread as at the end of the trace, in a tail block. That block's run end was Long.MAX_VALUE;
 * the wall view took it for the trace's end, a wait left open ran to it, and the thread-state
 * timeline of report.html failed analyze with NegativeArraySizeException (a system-wide
 * recording of mixed 3000 2 on a loaded machine).
 */
class CarriedThreadEndTest {
  private static final long MS = 1_000_000L;
  private static final long US = 1_000L;
  private static final Frame[] NO_STACK = new Frame[0];

  @Test
  void aThreadCarriedToTheLimitEndsAtARealInstant() {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder b = new BlockBuilder("run", "sys.data", 100 * MS, "cpu-clock", blocks::add);
    // CPU 0: thread 7 runs 10-20 ms, then the CPU records nothing until 12 s.
    b.schedSwitch(10 * MS, 0, 1, 0, 0, "swapper/0", "R", 7, "busy", NO_STACK);
    for (long t = 10 * MS + 250 * US; t < 20 * MS; t += 250 * US) {
      b.sample(t, 0, 7, 7, "busy", "cpu-clock", 250_000, NO_STACK);
    }
    // CPU 1 records all along (in time order with CPU 0's), so the run's time moves on.
    for (long t = 50 * MS; t <= 12_500 * MS; t += 50 * MS) {
      b.sample(t + 3 * US, 1, 8, 8, "other", "cpu-clock", 250_000, NO_STACK);
      if (t == 12_000 * MS) {
        b.sample(t + 5 * US, 0, 9, 9, "late", "cpu-clock", 250_000, NO_STACK);
      }
    }
    long lastRecord = 12_500 * MS + 3 * US;
    b.finish();

    List<EventBlock> tails = blocks.stream().filter(k -> k.cpu == 0 && k.cpuTail).toList();
    assertTrue(!tails.isEmpty(), "CPU 0 has tail blocks");
    for (EventBlock k : tails) {
      assertTrue(k.runEndNs <= lastRecord, "window " + k.window + ": run end " + k.runEndNs);
    }
    assertEquals(100, tails.get(0).window, "carried through 100 windows of 100 ms (10 s)");
  }
}
