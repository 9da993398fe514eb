package dev.loadprof.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class IndexTest {
  @Test
  void slotZeroIsEmptyAndIdsAreStable() {
    Index index = new Index();
    assertEquals(0, index.id(""));
    assertEquals(0, index.id(null));
    assertEquals(1, index.id("wall"));
    assertEquals(2, index.id("nanoseconds"));
    assertEquals(1, index.id("wall"));
    assertEquals(List.of("", "wall", "nanoseconds"), index.strings());
    assertEquals(3, index.size());
  }
}
