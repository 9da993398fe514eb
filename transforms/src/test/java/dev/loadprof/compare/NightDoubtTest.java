package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.RunInfo;
import dev.loadprof.report.Analysis;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nightly with runs whose night is in doubt (RunInfo.nightDoubt, set by archive.NightRule when a
 * run enters a job): never the latest night; on or after it they are left out and listed, before
 * it they stay with a note.
 */
class NightDoubtTest {
  private static Analysis nights(int count) {
    Analysis a = NightlyFixturesTest.nights(List.of("base-1", "base-2", "base-3", "base-4",
        "base-5").subList(0, count));
    for (RunInfo r : a.runs()) {
      r.night = Nights.fromRunId(r.runId).toString();
      r.nightDoubt = "";
    }
    return a;
  }

  @Test
  void aDoubtfulRunOnOrAfterTheLatestTrustedNightIsLeftOut() {
    Analysis a = nights(5);
    RunInfo last = a.runs().get(4);
    last.nightDoubt = "run " + last.runId + ": its night is in the future";
    Nightly n = NightlyHistory.nightly(a, NightlySettings.DEFAULT);
    assertEquals(NightlyFixturesTest.FIRST.plusDays(3), n.latestNight());
    assertTrue(n.excluded().stream().anyMatch(e -> e.runId().equals(last.runId)
        && e.reason().contains("in the future")), n.excluded().toString());
  }

  @Test
  void aDoubtfulRunBeforeTheLatestNightStaysWithANote() {
    Analysis a = nights(5);
    RunInfo second = a.runs().get(1);
    second.nightDoubt = "run " + second.runId + ": its night is after its capture date";
    Nightly n = NightlyHistory.nightly(a, NightlySettings.DEFAULT);
    assertEquals(NightlyFixturesTest.FIRST.plusDays(4), n.latestNight());
    assertFalse(n.excluded().stream().anyMatch(e -> e.runId().equals(second.runId)));
    assertTrue(n.notes().contains(second.nightDoubt), n.notes().toString());
    assertEquals(LocalDate.parse(second.night), Nights.of(second));
  }
}
