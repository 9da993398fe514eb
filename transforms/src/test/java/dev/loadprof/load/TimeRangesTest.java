package dev.loadprof.load;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** perf script's --time forms, and perf's -C lists. */
class TimeRangesTest {
  private static final long S = 1_000_000_000L;

  @Test
  void absoluteSecondsWithOpenEndsAndSeveralPairs() {
    assertArrayEquals(new long[] {1234_500_000_000L, 1236 * S},
        TimeRanges.parse("1234.5,1236.0").resolve(0, 0));
    assertArrayEquals(new long[] {1234_500_000_000L, Long.MAX_VALUE},
        TimeRanges.parse("1234.5,").resolve(0, 0));
    assertArrayEquals(new long[] {Long.MIN_VALUE, 1_000_000_001L},
        TimeRanges.parse(",1.000000001").resolve(0, 0));
    long[] two = TimeRanges.parse("1,2,5,6").resolve(0, 0);
    assertTrue(TimeRanges.contains(two, 2 * S), "ends are included, as in perf");
    assertFalse(TimeRanges.contains(two, 3 * S));
    assertTrue(TimeRanges.contains(two, 5 * S + 1));
  }

  @Test
  void percentagesAreOfTheRunsSpan() {
    long start = 100 * S;
    long end = 110 * S;
    assertArrayEquals(new long[] {101 * S, 102 * S},
        TimeRanges.parse("10%/2").resolve(start, end));
    assertArrayEquals(new long[] {100 * S, 101 * S}, TimeRanges.parse("10%").resolve(start, end));
    assertArrayEquals(new long[] {100 * S, 101 * S, 103 * S, 104 * S},
        TimeRanges.parse("0%-10%,30%-40%").resolve(start, end));
    assertArrayEquals(new long[] {100 * S, 101 * S, 101 * S, 102 * S},
        TimeRanges.parse("10%/1,10%/2").resolve(start, end));
    assertTrue(TimeRanges.parse("25%/4").isPercent());
  }

  @Test
  void malformedTimesSayWhatIsExpected() {
    for (String bad : new String[] {"", "1234.5", "abc,2", "3,2", "-1,2", "10%/0", "10%/11",
        "20%-10%", "10%-x", "110%", "10%/2x"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> TimeRanges.parse(bad), bad);
      assertFalse(e.getMessage().isBlank(), bad);
    }
    assertThat(assertThrows(IllegalArgumentException.class, () -> TimeRanges.parse("3,2"))
        .getMessage(), containsString("is after END"));
  }

  @Test
  void cpuListsAsPerfTakesThem() {
    assertEquals(Set.of(0, 2, 3, 4), SampleSelection.parseCpus("0,2-4"));
    for (String bad : new String[] {"", "a", "3-1", "1-2-3", "-1", "1,,2"}) {
      assertThrows(IllegalArgumentException.class, () -> SampleSelection.parseCpus(bad), bad);
    }
  }

  @Test
  void aSelectionDescribesItselfAndSelectsByEveryFilter() {
    SampleSelection s = new SampleSelection(Set.of(13, 12), Set.of(1), "10%-20%");
    assertEquals("--tid 12,13 --cpu 1 --time 10%-20%", s.describe());
    SampleSelection.Selector r = s.forRun(0, 100 * S, true);
    assertTrue(r.selects(12, 1, -1, 15 * S));
    assertFalse(r.selects(14, 1, -1, 15 * S));
    assertFalse(r.selects(12, 0, 1, 15 * S), "CPU lanes: the block's CPU counts");
    assertFalse(r.selects(12, 1, -1, 25 * S));
    SampleSelection.Selector perThread = s.forRun(0, 100 * S, false);
    assertFalse(perThread.selects(12, 12, -1, 15 * S),
        "samples without a CPU are not selected by --cpu");
    assertTrue(perThread.selects(12, 12, 1, 15 * S), "thread lanes: the sample's own CPU");
    assertFalse(perThread.selects(12, 1, 0, 15 * S));
    assertTrue(SampleSelection.ALL.isAll());
    assertEquals("", SampleSelection.ALL.describe());
  }
}
