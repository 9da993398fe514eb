package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunSelectionTest {
  @Test
  void nightsAndRangesExpandToDates() {
    RunSelection s = RunSelection.parse("2026-11-30..2026-12-02, 2026-11-20", null);
    assertEquals(List.of("2026-11-30", "2026-12-01", "2026-12-02", "2026-11-20"), s.nights());
    assertTrue(s.matches("2026-12-01", "web1"));
    assertFalse(s.matches("2026-11-21", "web1"));
  }

  @Test
  void hostsCompareAsPathSegments() {
    RunSelection s = RunSelection.parse("", "web 1,_");
    assertEquals(List.of("web_1", "_"), s.hosts());
    assertTrue(s.matches("2026-11-20", RunSelection.hostPartition("web 1")));
    assertTrue(s.matches("2026-11-20", RunSelection.hostPartition("")));
    assertFalse(s.matches("2026-11-20", "web2"));
  }

  @Test
  void nothingSelectedIsAll() {
    assertTrue(RunSelection.parse(null, " ").isAll());
  }

  @Test
  void badNightsAreRefusedWithAMessage() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RunSelection.parse("2026-13-01", null)).getMessage().contains("2026-11-20"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RunSelection.parse("2026-11-02..2026-11-01", null)).getMessage()
        .contains("ends before"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RunSelection.parse("2020-01-01..2026-01-01", null)).getMessage()
        .contains("more than 366"));
  }

}
