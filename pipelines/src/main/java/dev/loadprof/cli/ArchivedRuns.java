package dev.loadprof.cli;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.ArchiveRules;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import org.apache.beam.sdk.io.fs.ResourceId;

/** An archived run as {@code loadprof archive} finds it: intact, or damaged and why. */
final class ArchivedRuns {
  private ArchivedRuns() {}

  /**
   * Reads the run's manifest and every block it lists (each checked against the manifest and by
   * the codec's checksums): any damage makes the run one to repair.
   */
  static Found read(String archive, ResourceId manifestFile) {
    RunManifestRecord manifest;
    try {
      manifest = ArchiveFiles.readManifest(manifestFile);
    } catch (ArchiveCorruptException e) {
      return new Found(ArchiveRules.Archived.damaged(null), e.getMessage());
    }
    try {
      for (BlockFileRecord f : manifest.getBlockFiles()) {
        ResourceId blockFile = ArchiveLayout.resolve(archive, f.getPath());
        ArchiveFiles.readBlocks(BlockFileRef.of(blockFile.toString(), f.getSizeBytes(), manifest,
            manifestFile.toString()), block -> { });
      }
    } catch (ArchiveCorruptException e) {
      return new Found(ArchiveRules.Archived.damaged(manifest), e.getMessage());
    }
    return new Found(new ArchiveRules.Archived(manifest, false), null);
  }

  /** The archived state, and what is damaged (null when intact). */
  record Found(ArchiveRules.Archived archived, String problem) {
    static final Found NONE = new Found(ArchiveRules.Archived.NONE, null);
  }
}
