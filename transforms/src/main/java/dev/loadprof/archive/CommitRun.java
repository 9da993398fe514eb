package dev.loadprof.archive;

import dev.loadprof.model.RunInfo;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MoveOptions.StandardMoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one run into the archive: moves its staged block files under blocks/RUN_ID/, then
 * writes its manifest atomically (temp file, rename). The manifest is the commit point.
 *
 * <p>De-duplication, by run id and fingerprint of the source trace:
 * <ul>
 *   <li>no manifest for the run id: the run is added;
 *   <li>a manifest with the same fingerprint, window and event: the run is already archived;
 *       the staged files are dropped and the archive is left as it was;
 *   <li>the same fingerprint, but another window or event: the run is replaced (new manifest
 *       renamed over the old one, then the old block files deleted);
 *   <li>a different fingerprint: a different trace with the same name; the job fails with a
 *       message saying so (the CLI checks this before parsing, so users see it up front).
 * </ul>
 */
final class CommitRun extends DoFn<KV<String, CoGbkResult>, String> {
  static final TupleTag<RunInfo> RUN = new TupleTag<>("run") {};
  static final TupleTag<String> FINGERPRINT = new TupleTag<>("fingerprint") {};
  static final TupleTag<String> FILES = new TupleTag<>("files") {};
  static final TupleTag<Long> BLOCK_COUNT = new TupleTag<>("blockCount") {};

  private static final Logger LOG = LoggerFactory.getLogger(CommitRun.class);

  /** What happened to a run; the first word of each output line. */
  enum Outcome { ADDED, UNCHANGED, REPLACED }

  private final String archive;
  private final String jobId;
  private final String requestedEvent;
  private final long windowNs;

  CommitRun(String archive, String jobId, String requestedEvent, long windowNs) {
    this.archive = archive;
    this.jobId = jobId;
    this.requestedEvent = requestedEvent;
    this.windowNs = windowNs;
  }

  @ProcessElement
  public void process(@Element KV<String, CoGbkResult> element, OutputReceiver<String> out)
      throws IOException {
    String runId = element.getKey();
    CoGbkResult parts = element.getValue();
    RunInfo run = parts.getOnly(RUN);
    String fingerprint = parts.getOnly(FINGERPRINT);
    long blockCount = parts.getOnly(BLOCK_COUNT, 0L);
    List<ResourceId> staged = new ArrayList<>();
    for (String f : parts.getAll(FILES)) {
      staged.add(FileSystems.matchNewResource(f, false));
    }
    staged.sort((a, b) -> a.toString().compareTo(b.toString()));

    ResourceId manifestFile = ArchiveLayout.manifest(archive, runId);
    RunManifestRecord existing = ArchiveLayout.exists(manifestFile)
        ? ArchiveFiles.readManifest(manifestFile) : null;
    Outcome outcome = Outcome.ADDED;
    if (existing != null) {
      if (!existing.getFingerprint().equals(fingerprint)) {
        throw new IllegalStateException(sameNameMessage(archive, runId, existing.getSource(),
            run.source));
      }
      if (existing.getWindowNs() == windowNs
          && Objects.equals(existing.getRequestedEvent(), requestedEvent)) {
        FileSystems.delete(staged, StandardMoveOptions.IGNORE_MISSING_FILES);
        Metrics.counter("loadprof", "archive_runs_unchanged").inc();
        out.output(Outcome.UNCHANGED + " " + runId + " (already archived from "
            + existing.getSource() + ")");
        return;
      }
      outcome = Outcome.REPLACED;
    }

    List<ResourceId> targets = new ArrayList<>();
    List<BlockFileRecord> files = new ArrayList<>();
    for (int i = 0; i < staged.size(); i++) {
      String path = ArchiveLayout.blockFilePath(runId, jobId, i);
      targets.add(ArchiveLayout.resolve(archive, path));
      files.add(new BlockFileRecord(path, 0L));
    }
    FileSystems.rename(staged, targets);
    for (int i = 0; i < targets.size(); i++) {
      files.get(i).setSizeBytes(
          FileSystems.matchSingleFileSpec(targets.get(i).toString()).sizeBytes());
    }
    RunManifestRecord manifest = ArchiveConversions.toManifest(run,
        new ArchiveConversions.Storage(fingerprint, requestedEvent, windowNs, blockCount, files));
    ResourceId temp = manifestFile.getCurrentDirectory().resolve(
        "." + runId + "." + jobId + ".tmp", StandardResolveOptions.RESOLVE_FILE);
    ArchiveFiles.writeManifest(manifest, temp);
    // Beam's filesystems replace an existing target (local: atomic move; object stores: copy).
    FileSystems.rename(List.of(temp), List.of(manifestFile));

    if (existing != null) {
      List<ResourceId> old = new ArrayList<>();
      for (Iterator<BlockFileRecord> it = existing.getBlockFiles().iterator(); it.hasNext(); ) {
        old.add(ArchiveLayout.resolve(archive, it.next().getPath()));
      }
      FileSystems.delete(old, StandardMoveOptions.IGNORE_MISSING_FILES);
    }
    Metrics.counter("loadprof", outcome == Outcome.ADDED ? "archive_runs_added"
        : "archive_runs_replaced").inc();
    LOG.info("{} {}: {} blocks in {} files", outcome, runId, blockCount, files.size());
    out.output(outcome + " " + runId + " (" + blockCount + " blocks in " + files.size()
        + " files)");
  }

  /** The message for two different traces with one run id (the CLI says the same up front). */
  static String sameNameMessage(String archive, String runId, String archivedSource,
      String newSource) {
    return archive + " already holds a different trace with the run id '" + runId + "' (from "
        + archivedSource + "); " + newSource + " differs. Rename it or use another archive.";
  }
}
