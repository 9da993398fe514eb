package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.ArchiveRules.Archived;
import dev.loadprof.archive.ArchiveRules.Decision;
import dev.loadprof.block.BlockBuilder;
import dev.loadprof.schemas.RunManifestRecord;
import org.junit.jupiter.api.Test;

/** The archive's rules, as both the CLI and the archive job apply them. */
class ArchiveRulesTest {
  static final long WINDOW = 1_000_000_000L;

  static RunManifestRecord manifest(String fingerprint, long windowNs, String event) {
    RunManifestRecord m = new RunManifestRecord();
    m.setFingerprint(fingerprint);
    m.setWindowNs(windowNs);
    m.setRequestedEvent(event);
    m.setBlocksVersion(BlockBuilder.BLOCKS_VERSION);
    return m;
  }

  @Test
  void aRunIdNotArchivedIsAdded() {
    assertEquals(Decision.ADD, ArchiveRules.decide(Archived.NONE, "sha256:a", WINDOW, null));
  }

  @Test
  void theSameTraceParsedAlikeIsUnchangedAndOtherwiseReplaced() {
    Archived same = new Archived(manifest("sha256:a", WINDOW, null), false);
    assertEquals(Decision.UNCHANGED, ArchiveRules.decide(same, "sha256:a", WINDOW, null));
    assertEquals(Decision.REPLACE, ArchiveRules.decide(same, "sha256:a", WINDOW / 2, null));
    assertEquals(Decision.REPLACE, ArchiveRules.decide(same, "sha256:a", WINDOW, "cycles"));
  }

  /**
   * A run whose blocks an older loadprof built is rebuilt when its trace comes again, and says
   * what may be off until then: before version 1 a run's sample interval could be fixed before
   * its first sample (1 ms for cpu-clock), which overstated its higher loads.
   */
  @Test
  void blocksOfAnOlderLoadprofAreRebuiltAndSayWhatMayBeOff() {
    RunManifestRecord old = manifest("sha256:a", WINDOW, null);
    old.setBlocksVersion(0);
    old.setSource("night-1.data");
    old.setPeriodIsNs(true);
    old.setSampleIntervalNs(1_000_000);
    assertEquals(Decision.REPLACE, ArchiveRules.decide(new Archived(old, false), "sha256:a",
        WINDOW, null));
    String warning = String.join("\n", ArchiveRules.olderBlocksWarnings(old));
    assertTrue(warning.startsWith("night-1.data: archived by a loadprof older than 2026-11-27"),
        warning);
    assertTrue(warning.endsWith("Archive its trace again to rebuild it."), warning);

    // The interval of cpu-clock at 4000 Hz: the samples told it, nothing to say.
    old.setSampleIntervalNs(250_000);
    assertEquals(0, ArchiveRules.olderBlocksWarnings(old).size());
    // Another event's interval came from the gaps between samples, maybe from a few.
    old.setPeriodIsNs(false);
    assertEquals(1, ArchiveRules.olderBlocksWarnings(old).size());
    // A current run: nothing.
    old.setBlocksVersion(BlockBuilder.BLOCKS_VERSION);
    assertEquals(0, ArchiveRules.olderBlocksWarnings(old).size());
  }

  @Test
  void anotherTraceUnderTheRunIdIsAConflictEvenWhenTheRunIsDamaged() {
    RunManifestRecord other = manifest("sha256:b", WINDOW, null);
    assertEquals(Decision.CONFLICT, ArchiveRules.decide(new Archived(other, false), "sha256:a",
        WINDOW, null));
    assertEquals(Decision.CONFLICT, ArchiveRules.decide(Archived.damaged(other), "sha256:a",
        WINDOW, null));
  }

  @Test
  void aDamagedRunIsRepairedWhetherItsManifestReadsOrNot() {
    assertEquals(Decision.REPAIR, ArchiveRules.decide(Archived.damaged(null), "sha256:a",
        WINDOW, null));
    assertEquals(Decision.REPAIR, ArchiveRules.decide(
        Archived.damaged(manifest("sha256:a", WINDOW, null)), "sha256:a", WINDOW, null));
  }
}
