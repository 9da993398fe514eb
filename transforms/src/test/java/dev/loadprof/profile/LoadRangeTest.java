package dev.loadprof.profile;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LoadRangeTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // text, min, max (-1 = open), canonical text
    "'2:8', 2, 8, '2:8'",
    "'1', 1, 1, '1'",
    "'4:', 4, -1, '4:'",
    "':3', 0, 3, ':3'",
    "' 5:5 ', 5, 5, '5'",
    "'all', 0, -1, 'all'",
    "':', 0, -1, 'all'",
    "'0:2', 0, 2, ':2'",
  })
  void parsesAndRoundTrips(String text, int min, int max, String canonical) {
    LoadRange r = LoadRange.parse(text);
    assertEquals(min, r.min());
    assertEquals(max < 0 ? Integer.MAX_VALUE : max, r.max());
    assertEquals(canonical, r.toString());
    assertEquals(r, LoadRange.parse(r.toString()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "x", "1:x", "8:2", "-1", "1:2:3", "1.5", "a:"})
  void rejectsBadText(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LoadRange.parse(text));
    assertThat(e.getMessage(), containsString("bad load filter"));
  }

  @Test
  void containsIsInclusive() {
    LoadRange r = LoadRange.parse("2:8");
    assertFalse(r.contains(1));
    assertTrue(r.contains(2));
    assertTrue(r.contains(8));
    assertFalse(r.contains(9));
    assertTrue(LoadRange.parse("4:").contains(1000));
    assertTrue(LoadRange.parse(":3").contains(1));
    assertTrue(LoadRange.ALL.contains(1));
    assertTrue(LoadRange.ALL.contains(Integer.MAX_VALUE));
    assertSame(LoadRange.ALL, LoadRange.parse("all"));
  }
}
