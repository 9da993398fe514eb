package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.archive.ArchiveRules.Archived;
import dev.loadprof.archive.ArchiveRules.Decision;
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
