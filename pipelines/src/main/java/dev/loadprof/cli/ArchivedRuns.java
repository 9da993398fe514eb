package dev.loadprof.cli;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.ArchiveRules;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.schemas.BlockFileRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import org.apache.beam.sdk.io.FileSystems;
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
    String index = indexProblem(archive, manifest);
    if (index != null) {
      return new Found(ArchiveRules.Archived.damaged(manifest), index);
    }
    return new Found(new ArchiveRules.Archived(manifest, false), null);
  }

  /**
   * What is wrong with the run's index entry (missing, or its content damaged), or null: a run
   * without its entry cannot be selected by --nights, so archiving it again writes it.
   */
  private static String indexProblem(String archive, RunManifestRecord manifest) {
    if (manifest.getJobId().isEmpty()) {
      return null; // format 1: no index
    }
    ResourceId entry = ArchiveLayout.indexEntry(archive, manifest.getNight(),
        RunSelection.hostPartition(manifest.getHost()), manifest.getRunId(),
        manifest.getJobId());
    if (!ArchiveLayout.exists(entry)) {
      return entry + ": the run's index entry is missing";
    }
    try (InputStream in = Channels.newInputStream(FileSystems.open(entry))) {
      byte[] bytes = in.readAllBytes();
      if (bytes.length == 0) {
        return manifest.getFormatVersion() >= ArchiveFiles.FIRST_CHECKSUMMED_FORMAT
            ? entry + ": the run's index entry is empty" : null;
      }
      IndexEntry.decode(bytes);
      return null;
    } catch (IOException | IllegalArgumentException e) {
      return entry + ": " + e.getMessage();
    }
  }

  /** The archived state, and what is damaged (null when intact). */
  record Found(ArchiveRules.Archived archived, String problem) {
    static final Found NONE = new Found(ArchiveRules.Archived.NONE, null);
  }
}
