package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Frame writes its hashCode and equals out: they must give what the record's own would, since
 * hash maps of frames and stacks order some outputs (a different hash would reorder them).
 */
class FrameTest {
  /** The same components as Frame, with the record's generated hashCode and equals. */
  private record Plain(String symbol, String dso, long address) {}

  @Test
  void hashesAsARecordOfTheSameComponents() {
    Random random = new Random(21);
    for (int i = 0; i < 10_000; i++) {
      String symbol = "f" + random.nextInt(1000);
      String dso = i % 5 == 0 ? "" : "/lib/x" + random.nextInt(10) + ".so";
      long address = i % 3 == 0 ? random.nextLong() : random.nextInt(4096);
      assertEquals(new Plain(symbol, dso, address).hashCode(),
          new Frame(symbol, dso, address).hashCode());
    }
    // the compact constructor's defaults are the components hashed
    assertEquals(new Plain("[unknown]", "", 7).hashCode(), new Frame(null, null, 7).hashCode());
  }

  @Test
  void equalByAllThreeComponents() {
    Frame f = new Frame("main", "/bin/a", 16);
    assertEquals(f, new Frame(new String("main"), new String("/bin/a"), 16));
    assertNotEquals(f, new Frame("main", "/bin/a", 17));
    assertNotEquals(f, new Frame("main", "/bin/b", 16));
    assertNotEquals(f, new Frame("mainx", "/bin/a", 16));
    assertNotEquals(f, null);
    assertNotEquals(f, "main (/bin/a)");
    assertEquals(new Frame(null, null), new Frame("[unknown]", "", 0));
  }
}
