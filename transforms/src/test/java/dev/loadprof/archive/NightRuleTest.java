package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.NightRule.Night;
import dev.loadprof.archive.NightRule.Source;
import dev.loadprof.perfdata.reader.NativePerfDataReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NightRuleTest {
  static final LocalDate TODAY = LocalDate.of(2026, 11, 27);
  static final long NOV_20_UTC = 1_795_132_800_000L; // 2026-11-20T00:00Z

  @Test
  void explicitThenRunIdThenCaptureDateThenFileDate() {
    Night n = NightRule.of("2026-11-23", "mixed-2026-11-01", "2026-11-22", NOV_20_UTC, TODAY);
    assertEquals(new Night(LocalDate.of(2026, 11, 23), Source.EXPLICIT, ""), n);
    n = NightRule.of(null, "mixed-2026-11-01", "2026-11-22", NOV_20_UTC, TODAY);
    assertEquals(new Night(LocalDate.of(2026, 11, 1), Source.RUN_ID, ""), n);
    n = NightRule.of(null, "mixed-a", "2026-11-22", NOV_20_UTC, TODAY);
    assertEquals(new Night(LocalDate.of(2026, 11, 22), Source.CAPTURED, ""), n);
    n = NightRule.of(null, "mixed-a", "", NOV_20_UTC, TODAY);
    assertEquals(new Night(LocalDate.of(2026, 11, 20), Source.FILE_DATE, ""), n);
    assertEquals(LocalDate.of(2026, 11, 19), NightRule.fileDate(NOV_20_UTC - 1));
    assertNull(NightRule.of(null, "mixed-a", "", 0, TODAY));
  }

  @Test
  void aNightInTheFutureIsInDoubt() {
    Night n = NightRule.of(null, "mixed-2099-01-01", "2026-11-22", NOV_20_UTC, TODAY);
    assertEquals(LocalDate.of(2099, 1, 1), n.date());
    assertTrue(n.doubt().startsWith("run mixed-2099-01-01: its night 2099-01-01 (from the date"
        + " in the run id) is in the future"), n.doubt());
    // Tomorrow is not: time zones.
    assertTrue(NightRule.of(null, "mixed-2026-11-28", "", 0, TODAY).trusted());
    assertTrue(!NightRule.of(null, "mixed-2026-11-29", "", 0, TODAY).trusted());
  }

  @Test
  void aNightMoreThanADayAfterTheCaptureDateIsInDoubtOneBeforeItIsNot() {
    Night late = NightRule.of(null, "mixed-2026-11-25", "2026-11-22", 0, TODAY);
    assertTrue(late.doubt().contains("after the recording's capture date 2026-11-22"),
        late.doubt());
    assertTrue(NightRule.of(null, "mixed-2026-11-23", "2026-11-22", 0, TODAY).trusted());
    assertTrue(NightRule.of(null, "mixed-2026-11-01", "2026-11-22", 0, TODAY).trusted());
    Night filed = NightRule.filed("2026-11-26", "mixed-a", "2026-11-22", TODAY);
    assertTrue(!filed.trusted() && filed.doubt().contains("its night 2026-11-26 is after"),
        filed.doubt());
  }

  /**
   * A perf.data file says when it was recorded in its header (CLOCK_DATA, perf record -k): the
   * shipped one was recorded on 2026-11-25, whatever its file's date (today, once unpacked;
   * which is also what perf script --header prints as "captured on").
   */
  @Test
  void aPerfDataFilesCaptureDateIsFromItsHeaderNotItsFileDate(@TempDir Path dir)
      throws IOException {
    Path data = dir.resolve("tiny-mixed.data");
    try (InputStream in = new GZIPInputStream(
        getClass().getResourceAsStream("/perfdata/tiny-mixed.data.gz"))) {
      Files.write(data, in.readAllBytes());
    }
    String captured = NativePerfDataReader.capturedOn(data);
    assertEquals("2026-11-25", captured);
    Night n = NightRule.of(null, "tiny-mixed", captured,
        Files.getLastModifiedTime(data).toMillis(), TODAY);
    assertEquals(new Night(LocalDate.of(2026, 11, 25), Source.CAPTURED, ""), n);
    assertEquals("", NativePerfDataReader.capturedOn(dir.resolve("missing.data")));
  }
}
