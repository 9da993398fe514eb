package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveConversions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions.StandardMoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Where things are in an archive directory. All paths go through Beam {@link FileSystems}, so an
 * archive can live on any filesystem Beam has a module for (local, HDFS, S3, GCS).
 *
 * <pre>
 * ARCHIVE/loadprof-archive.json           marks the directory as an archive (format version)
 * ARCHIVE/runs/RUN_ID.avro                one RunManifestRecord per run, with its checksum;
 *                                         created only if absent (the commit point)
 * ARCHIVE/blocks/RUN_ID/JOB-NNNNN.avro    EventBlockRecords of the run, listed by its manifest
 * ARCHIVE/index/night=N/host=H/RUN_ID@JOB the run's partitions (IndexEntry, with a checksum;
 *                                         empty in format 2), written after the manifest, valid
 *                                         only while runs/RUN_ID.avro names JOB as its job
 * ARCHIVE/.staging/JOB/...                files of a running (or failed) archive job
 * </pre>
 *
 * A run is in the archive exactly when its manifest is, and only the block files its manifest
 * lists are read, so debris of a failed job is never visible.
 */
public final class ArchiveLayout {
  public static final String MARKER_FILE = "loadprof-archive.json";
  public static final String RUNS_DIR = "runs";
  public static final String BLOCKS_DIR = "blocks";
  public static final String STAGING_DIR = ".staging";
  public static final String INDEX_DIR = "index";
  /** Between a run id and a job id in an index entry's name. */
  public static final char JOB_SEPARATOR = '@';
  public static final String AVRO_SUFFIX = ".avro";

  private ArchiveLayout() {}

  public static ResourceId dir(String archive) {
    return FileSystems.matchNewResource(archive, true);
  }

  public static ResourceId marker(String archive) {
    return dir(archive).resolve(MARKER_FILE, StandardResolveOptions.RESOLVE_FILE);
  }

  public static ResourceId manifest(String archive, String runId) {
    return dir(archive).resolve(RUNS_DIR, StandardResolveOptions.RESOLVE_DIRECTORY)
        .resolve(runId + AVRO_SUFFIX, StandardResolveOptions.RESOLVE_FILE);
  }

  /** The index entry of a run committed by a job under its night and host partitions. */
  public static ResourceId indexEntry(String archive, String night, String hostPartition,
      String runId, String jobId) {
    return resolve(archive, indexPath(night, hostPartition) + runId + JOB_SEPARATOR + jobId);
  }

  /**
   * The night index a job wrote of its runs under one night and host ({@link
   * dev.loadprof.archive.NightIndex}).
   */
  public static ResourceId nightIndex(String archive, String night, String hostPartition,
      String jobId) {
    return resolve(archive, indexPath(night, hostPartition)
        + dev.loadprof.archive.NightIndex.NAME_PREFIX + jobId);
  }

  /** "index/night=N/host=H/", relative to the archive; "*" stands for any night or host. */
  public static String indexPath(String night, String hostPartition) {
    return INDEX_DIR + "/night=" + night + "/host=" + hostPartition + "/";
  }

  /** The glob that matches every manifest of an archive. */
  public static String manifestGlob(String archive) {
    return dir(archive).resolve(RUNS_DIR, StandardResolveOptions.RESOLVE_DIRECTORY)
        .resolve("*" + AVRO_SUFFIX, StandardResolveOptions.RESOLVE_FILE).toString();
  }

  /** Path of a block file relative to the archive, as its manifest records it. */
  public static String blockFilePath(String runId, String jobId, int index) {
    return BLOCKS_DIR + "/" + runId + "/" + jobId + String.format("-%05d", index) + AVRO_SUFFIX;
  }

  /** Resolves a '/'-separated path relative to the archive. */
  public static ResourceId resolve(String archive, String relativePath) {
    ResourceId r = dir(archive);
    String[] parts = relativePath.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      r = r.resolve(parts[i], StandardResolveOptions.RESOLVE_DIRECTORY);
    }
    return r.resolve(parts[parts.length - 1], StandardResolveOptions.RESOLVE_FILE);
  }

  public static ResourceId stagingDir(String archive, String jobId) {
    return dir(archive).resolve(STAGING_DIR, StandardResolveOptions.RESOLVE_DIRECTORY)
        .resolve(jobId, StandardResolveOptions.RESOLVE_DIRECTORY);
  }

  /** True when {@code path} is a directory holding an archive marker. */
  public static boolean isArchive(String path) {
    try {
      return exists(marker(path));
    } catch (IllegalArgumentException e) {
      return false; // not a path any filesystem understands
    }
  }

  public static boolean exists(ResourceId file) {
    if ("file".equals(file.getScheme())) {
      // Beam's local match of a missing path walks the tree from its nearest existing parent,
      // which for "/missing/x" is the whole disk.
      return java.nio.file.Files.exists(java.nio.file.Paths.get(file.toString()));
    }
    try {
      MatchResult m = FileSystems.match(file.toString());
      return m.status() == MatchResult.Status.OK && !m.metadata().isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  /** The format version its marker states (1 when the marker names none). */
  public static int formatVersion(String archive) throws IOException {
    String json = new String(StoreListing.read(marker(archive).toString()),
        StandardCharsets.UTF_8);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"version\"\\s*:\\s*(\\d+)")
        .matcher(json);
    return m.find() ? Integer.parseInt(m.group(1)) : 1;
  }

  /**
   * Creates the marker if missing, so that a new directory becomes an archive. Create-if-absent,
   * so that several jobs starting a new archive at once do not write it over each other.
   */
  public static void createMarker(String archive, PipelineOptions options) throws IOException {
    if (exists(marker(archive))) {
      return;
    }
    String json = "{\"format\": \"loadprof-archive\", \"version\": "
        + ArchiveConversions.FORMAT_VERSION + "}\n";
    ExclusiveCreates.createIfAbsent(marker(archive), json.getBytes(StandardCharsets.UTF_8),
        options);
  }

  /** True for the names an archive holds at its top (another job may be creating them). */
  public static boolean isArchiveEntry(String name) {
    return name.equals(MARKER_FILE) || name.equals(RUNS_DIR) || name.equals(BLOCKS_DIR)
        || name.equals(INDEX_DIR) || name.equals(STAGING_DIR)
        || name.equals(RunFigures.FIGURES_DIR) || name.equals(NightFigures.DIR)
        || name.startsWith("." + MARKER_FILE + "."); // a marker being created
  }

  /** Deletes a job's staging directory and everything under it; best effort. */
  public static void deleteStaging(String archive, String jobId) {
    ResourceId staging = stagingDir(archive, jobId);
    try {
      MatchResult m = FileSystems.match(staging.resolve("**", StandardResolveOptions.RESOLVE_FILE)
          .toString());
      if (m.status() == MatchResult.Status.OK) {
        List<ResourceId> files = m.metadata().stream().map(MatchResult.Metadata::resourceId)
            .toList();
        FileSystems.delete(files, StandardMoveOptions.IGNORE_MISSING_FILES);
      }
      deleteEmptyDirs(staging);
    } catch (IOException | RuntimeException e) {
      // Leftovers under .staging are invisible to readers; nothing to do but leave them.
    }
  }

  /**
   * Deletes the staged files of jobs that failed or were killed, older than {@code cutoffMillis}
   * (younger ones may belong to a job still running); returns how many. Best effort.
   */
  public static int sweepStaging(String archive, long cutoffMillis) {
    ResourceId staging = dir(archive).resolve(STAGING_DIR, StandardResolveOptions.RESOLVE_DIRECTORY);
    if ("file".equals(staging.getScheme())
        && !java.nio.file.Files.isDirectory(java.nio.file.Paths.get(staging.toString()))) {
      return 0;
    }
    try {
      List<ResourceId> old = FileSystems.match(
              staging.resolve("**", StandardResolveOptions.RESOLVE_FILE).toString(),
              org.apache.beam.sdk.io.fs.EmptyMatchTreatment.ALLOW)
          .metadata().stream().filter(m -> m.lastModifiedMillis() <= cutoffMillis)
          .map(MatchResult.Metadata::resourceId).toList();
      FileSystems.delete(old, StandardMoveOptions.IGNORE_MISSING_FILES);
      return old.size();
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Local filesystems keep directories; object stores have none. Deepest first. */
  private static void deleteEmptyDirs(ResourceId dir) throws IOException {
    if (!"file".equals(dir.getScheme())) {
      return;
    }
    java.nio.file.Path root = java.nio.file.Paths.get(dir.toString());
    if (!java.nio.file.Files.isDirectory(root)) {
      return;
    }
    try (var paths = java.nio.file.Files.walk(root)) {
      for (java.nio.file.Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.deleteIfExists(p);
      }
    }
    try {
      java.nio.file.Files.deleteIfExists(root.getParent()); // .staging, when no other job runs
    } catch (java.nio.file.DirectoryNotEmptyException e) {
      // another job is staging files
    }
  }
}
