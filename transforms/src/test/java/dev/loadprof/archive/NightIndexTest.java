package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NightIndexTest {
  private static final NightIndex INDEX = new NightIndex("2026-11-20", "web1", "job7", List.of(
      new NightIndex.Run("a", "job7", "ab12", "cpu-clock", 1_000_000_000L, "sha256:x",
          "/traces/a.txt.gz", List.of(new NightIndex.BlockFile("blocks/a/job7-00000.avro", 12),
              new NightIndex.BlockFile("blocks/a/job7-00001.avro", 34))),
      new NightIndex.Run("b", "job3", "cd34", "cycles", 500_000_000L, "", "b\twith\ttabs",
          List.of())));

  @Test
  void decodesWhatItEncodes() {
    NightIndex back = NightIndex.decode(INDEX.encode());
    assertEquals(INDEX.runs().get(0), back.runs().get(0));
    assertEquals("b with tabs", back.runs().get(1).source());
    assertEquals(List.of(), back.runs().get(1).blockFiles());
    assertNull(back.disagreement("2026-11-20", "web1", "job7"));
    assertTrue(back.disagreement("2026-11-21", "web1", "job7").contains("night 2026-11-21"));
  }

  @Test
  void anyFlippedByteIsDamage() {
    byte[] bytes = INDEX.encode();
    for (int at = 0; at < bytes.length; at += 7) {
      byte[] damaged = bytes.clone();
      damaged[at] ^= 0x01;
      assertThrows(IllegalArgumentException.class, () -> NightIndex.decode(damaged),
          "byte " + at);
    }
  }
}
