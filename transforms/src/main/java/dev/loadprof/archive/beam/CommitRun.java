package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.ArchiveJob;
import dev.loadprof.archive.ArchiveRules;
import dev.loadprof.archive.ArchiveRunConflictException;
import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.NightRule;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.model.RunInfo;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions.StandardMoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one run into the archive, in this order: its staged block files are moved under
 * blocks/RUN_ID/ (names unique to the job), its manifest is created, only if absent ({@link
 * ExclusiveCreates}): the commit point; then its index entry is written under its night and host.
 * Whatever a job leaves before that point is invisible, and the next job that commits the same
 * run deletes it once it is older than the grace period.
 *
 * <p>Which runs are new, unchanged, replaced, repaired or in conflict is decided by
 * {@link ArchiveRules}, as the CLI decides before parsing. If another job creates the manifest
 * of an added run first, this job's files are deleted and the run is UNCHANGED (same trace) or
 * the job fails with {@link ArchiveRunConflictException} (another trace). A replaced or repaired
 * run's new manifest is renamed over the old one, then the old block files and index entry are
 * deleted.
 */
final class CommitRun extends DoFn<KV<String, CoGbkResult>, String> {
  static final TupleTag<RunInfo> RUN = new TupleTag<>("run") {};
  static final TupleTag<String> FINGERPRINT = new TupleTag<>("fingerprint") {};
  static final TupleTag<String> FILES = new TupleTag<>("files") {};
  static final TupleTag<Long> BLOCK_COUNT = new TupleTag<>("blockCount") {};
  /** What happened to each run: one line each. */
  static final TupleTag<String> OUTCOMES = new TupleTag<>("outcomes") {};
  /** (night and host partition, the run as its night index lists it) of each run indexed. */
  static final TupleTag<KV<String, NightIndex.Run>> INDEXED = new TupleTag<>("indexed") {};

  /**
   * Fault injection for tests: a JVM with this system property set to a run id halts (as if
   * killed) after that run's block files are written, before its manifest and index entry.
   */
  static final String HALT_BEFORE_MANIFEST = "loadprof.test.haltBeforeManifest";

  private static final Logger LOG = LoggerFactory.getLogger(CommitRun.class);

  /** What happened to a run; the first word of each output line, and its counter. */
  enum Outcome {
    ADDED("archive_runs_added"), UNCHANGED("archive_runs_unchanged"),
    REPLACED("archive_runs_replaced"), REPAIRED("archive_runs_repaired");

    final String counter;

    Outcome(String counter) {
      this.counter = counter;
    }
  }

  private final ArchiveJob job;

  CommitRun(ArchiveJob job) {
    this.job = job;
  }

  @ProcessElement
  public void process(@Element KV<String, CoGbkResult> element, MultiOutputReceiver outs,
      PipelineOptions options) throws IOException {
    OutputReceiver<String> out = outs.get(OUTCOMES);
    OutputReceiver<KV<String, NightIndex.Run>> indexed = outs.get(INDEXED);
    String archive = job.archive();
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
    ArchiveRules.Archived archived = archived(manifestFile, runId);
    RunManifestRecord existing = archived.manifest();
    if (existing != null && existing.getJobId().equals(job.jobId())) {
      // A retried bundle: committed already.
      FileSystems.delete(staged, StandardMoveOptions.IGNORE_MISSING_FILES);
      NightIndexes.line(archive, existing, indexed);
      out.output(Outcome.ADDED + " " + runId + " (committed by an earlier attempt)");
      return;
    }
    Outcome outcome;
    switch (ArchiveRules.decide(archived, fingerprint, job.windowNs(), job.requestedEvent())) {
      case CONFLICT -> {
        FileSystems.delete(staged, StandardMoveOptions.IGNORE_MISSING_FILES);
        throw new ArchiveRunConflictException(ArchiveRules.conflictMessage(archive, runId,
            existing.getSource(), run.source));
      }
      case UNCHANGED -> {
        NightIndexes.lineIfUnindexed(archive, existing, indexed);
        unchanged(runId, existing, staged, out);
        return;
      }
      case ADD -> outcome = Outcome.ADDED;
      case REPLACE -> outcome = Outcome.REPLACED;
      default -> outcome = Outcome.REPAIRED;
    }

    List<ResourceId> targets = new ArrayList<>();
    List<BlockFileRecord> files = new ArrayList<>();
    for (int i = 0; i < staged.size(); i++) {
      String path = ArchiveLayout.blockFilePath(runId, job.jobId(), i);
      targets.add(ArchiveLayout.resolve(archive, path));
      files.add(new BlockFileRecord(path, 0L));
    }
    FileSystems.rename(staged, targets);
    for (int i = 0; i < targets.size(); i++) {
      files.get(i).setSizeBytes(
          FileSystems.matchSingleFileSpec(targets.get(i).toString()).sizeBytes());
    }
    String night = nightOf(run);
    String host = RunSelection.hostPartition(run.host);
    ResourceId indexEntry = ArchiveLayout.indexEntry(archive, night, host, runId, job.jobId());
    RunManifestRecord manifest = ArchiveConversions.toManifest(run,
        new ArchiveConversions.Storage(fingerprint, job.requestedEvent(), job.windowNs(),
            blockCount, files, night, job.jobId()));
    haltHereIfTestAsks(runId);

    if (outcome == Outcome.ADDED) {
      RunManifestRecord winner = create(manifestFile, manifest, options);
      if (winner != null) { // another job committed this run id first
        deleteQuietly(targets, List.of());
        if (!winner.getFingerprint().equals(fingerprint)) {
          throw new ArchiveRunConflictException(ArchiveRules.conflictMessage(archive, runId,
              winner.getSource(), run.source));
        }
        NightIndexes.lineIfUnindexed(archive, winner, indexed);
        unchanged(runId, winner, List.of(), out);
        return;
      }
      writeIndexEntry(indexEntry, new IndexEntry(runId, job.jobId(), night, host, run.source));
    } else { // replaced or repaired: the new manifest goes over the old one
      ResourceId temp = manifestFile.getCurrentDirectory().resolve(
          "." + runId + "." + job.jobId() + ".tmp", StandardResolveOptions.RESOLVE_FILE);
      ArchiveFiles.writeManifest(manifest, temp);
      // Beam's filesystems replace an existing target (local and HDFS: rename; S3: one copy,
      // which readers see whole or not at all).
      FileSystems.rename(List.of(temp), List.of(manifestFile));
      writeIndexEntry(indexEntry, new IndexEntry(runId, job.jobId(), night, host, run.source));
      List<ResourceId> old = new ArrayList<>();
      // A manifest too damaged to read names no files: they are swept as debris below.
      for (BlockFileRecord f : existing == null ? List.<BlockFileRecord>of()
          : existing.getBlockFiles()) {
        old.add(ArchiveLayout.resolve(archive, f.getPath()));
      }
      if (existing != null && !existing.getJobId().isEmpty()) {
        old.add(ArchiveLayout.indexEntry(archive, existing.getNight(),
            RunSelection.hostPartition(existing.getHost()), runId, existing.getJobId()));
      }
      FileSystems.delete(old, StandardMoveOptions.IGNORE_MISSING_FILES);
    }
    NightIndexes.line(archive, manifest, indexed);
    sweepDebris(runId, manifest, night, host);
    Metrics.counter("loadprof", outcome.counter).inc();
    LOG.info("{} {}: {} blocks in {} files, night {}, host {}", outcome, runId, blockCount,
        files.size(), night, host);
    out.output(outcome + " " + runId + " (" + blockCount + " blocks in " + files.size()
        + " files)");
  }

  /**
   * The run's partition: --night, else the night parsing decided by {@link NightRule}; a night
   * in doubt is filed all the same, and said.
   */
  private String nightOf(RunInfo run) {
    NightRule.Night n = job.explicitNight() != null
        ? NightRule.of(job.explicitNight(), run.runId, run.capturedOn, 0, NightRule.today())
        : NightRule.filed(run.night, run.runId, run.capturedOn, NightRule.today());
    if (n == null) { // nothing dated the run, not even its file: the day it is archived
      return NightRule.today().toString();
    }
    if (!n.trusted()) {
      LOG.warn(n.doubt());
    }
    return n.date().toString();
  }

  /**
   * The run id's archived state: damaged when its manifest cannot be read, or when the CLI found
   * its block files damaged ({@link ArchiveJob#repairs}).
   */
  private ArchiveRules.Archived archived(ResourceId manifestFile, String runId) {
    if (!ArchiveLayout.exists(manifestFile)) {
      return ArchiveRules.Archived.NONE;
    }
    RunManifestRecord m;
    try {
      m = ArchiveFiles.readManifest(manifestFile);
    } catch (ArchiveCorruptException e) {
      LOG.warn("{}: re-creating run {}: {}", job.archive(), runId, e.getMessage());
      return ArchiveRules.Archived.damaged(null);
    }
    return job.repairs().contains(runId) ? ArchiveRules.Archived.damaged(m)
        : new ArchiveRules.Archived(m, false);
  }

  /**
   * Writes the run's index entry, after its manifest: an entry always has its manifest, so an
   * entry without one is damage; a run whose entry is missing (a job killed in between) is found
   * by readers (ArchiveListing) and said.
   */
  private static void writeIndexEntry(ResourceId file, IndexEntry entry) throws IOException {
    try (var out = FileSystems.create(file, "application/octet-stream")) {
      out.write(java.nio.ByteBuffer.wrap(entry.encode()));
    }
  }

  private static void unchanged(String runId, RunManifestRecord existing,
      List<ResourceId> staged, OutputReceiver<String> out) throws IOException {
    FileSystems.delete(staged, StandardMoveOptions.IGNORE_MISSING_FILES);
    Metrics.counter("loadprof", Outcome.UNCHANGED.counter).inc();
    out.output(Outcome.UNCHANGED + " " + runId + " (already archived from "
        + existing.getSource() + ")");
  }

  /**
   * Creates the manifest if absent; returns null when this job's manifest is the one in place,
   * else the winner's. The read-back also catches a store whose conditional write is not atomic
   * (two writers both told "created"): the manifest that stays names its job.
   */
  private static RunManifestRecord create(ResourceId file, RunManifestRecord manifest,
      PipelineOptions options) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ArchiveFiles.writeManifest(manifest, bytes);
    boolean created = ExclusiveCreates.createIfAbsent(file, bytes.toByteArray(), options);
    RunManifestRecord inPlace = ArchiveFiles.readManifest(file);
    if (created && inPlace.getJobId().equals(manifest.getJobId())) {
      return null;
    }
    return inPlace;
  }

  /**
   * Deletes what failed or killed jobs left for this run (block files its manifest does not
   * list, index entries of other jobs), when older than the grace period: younger files may
   * belong to a job that is still running. Best effort: leftovers are invisible anyway.
   */
  private void sweepDebris(String runId, RunManifestRecord manifest, String night, String host) {
    long cutoff = System.currentTimeMillis() - job.debrisGraceMillis();
    Set<String> keep = manifest.getBlockFiles().stream()
        .map(f -> ArchiveLayout.resolve(job.archive(), f.getPath()).toString())
        .collect(Collectors.toSet());
    keep.add(ArchiveLayout.indexEntry(job.archive(), night, host, runId, job.jobId())
        .toString());
    List<ResourceId> debris = new ArrayList<>();
    for (String glob : List.of(
        ArchiveLayout.resolve(job.archive(), ArchiveLayout.BLOCKS_DIR + "/" + runId + "/*")
            .toString(),
        ArchiveLayout.resolve(job.archive(), ArchiveLayout.indexPath(night, host) + runId
            + ArchiveLayout.JOB_SEPARATOR + "*").toString())) {
      try {
        for (MatchResult.Metadata m : FileSystems.match(glob, EmptyMatchTreatment.ALLOW)
            .metadata()) {
          if (!keep.contains(m.resourceId().toString()) && m.lastModifiedMillis() <= cutoff) {
            debris.add(m.resourceId());
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not list {} to clean up: {}", glob, e.toString());
      }
    }
    if (!debris.isEmpty()) {
      deleteQuietly(debris, List.of());
      Metrics.counter("loadprof", "archive_debris_files_deleted").inc(debris.size());
      LOG.info("{}: deleted {} files left by failed jobs", runId, debris.size());
    }
  }

  private static void deleteQuietly(List<ResourceId> a, List<ResourceId> b) {
    List<ResourceId> all = new ArrayList<>(a);
    all.addAll(b);
    try {
      FileSystems.delete(all, StandardMoveOptions.IGNORE_MISSING_FILES);
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not delete {}: {}", all, e.toString()); // invisible to readers anyway
    }
  }

  private static void haltHereIfTestAsks(String runId) {
    if (runId.equals(System.getProperty(HALT_BEFORE_MANIFEST))) {
      LOG.warn("halting before the manifest of {} ({} is set)", runId, HALT_BEFORE_MANIFEST);
      Runtime.getRuntime().halt(137);
    }
  }
}
