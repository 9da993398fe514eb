package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * Lists the runs of an archive that a {@link RunSelection} asks for. All runs: one listing of
 * runs/. Some nights or hosts: the index entries of those nights (or, hosts only, of every
 * night), each pointing at runs/RUN_ID.avro and read and checked ({@link IndexEntry}); blocks/
 * is never listed. Either way the names of runs/ and of the whole index are listed (names only)
 * and compared: an index entry without its manifest is damage, and a run without an index entry
 * (a job killed between the two, or a deleted entry) is found, read if it is selected, and said,
 * never silently dropped.
 */
public final class ArchiveListing {
  private ArchiveListing() {}

  /**
   * A manifest to read, and the job whose index entry led to it ("" when it was listed from
   * runs/ directly). An entry of another job than the manifest's is stale and not read.
   */
  public record ManifestRef(String path, String indexedJobId) implements Serializable {
    public boolean accepts(RunManifestRecord manifest) {
      return indexedJobId.isEmpty() || indexedJobId.equals(manifest.getJobId());
    }
  }

  /** The manifests to read, and what to tell the user about the archive's index. */
  public record Listing(List<ManifestRef> refs, List<String> warnings) {}

  /**
   * @throws IllegalArgumentException with a message for the user when the archive is of a format
   *     without partitions and a selection was asked for
   * @throws ArchiveCorruptException naming the run and the command that repairs it, when an
   *     index entry is damaged or its manifest is missing
   */
  public static List<ManifestRef> list(String archive, RunSelection selection)
      throws IOException {
    return listChecked(archive, selection).refs();
  }

  /** {@link #list}, with warnings of runs missing from the index. */
  public static Listing listChecked(String archive, RunSelection selection) throws IOException {
    int version = ArchiveLayout.formatVersion(archive);
    if (!selection.isAll() && version < 2) {
      throw new IllegalArgumentException(archive + " is an archive of format " + version
          + ", which has no night/host partitions; analyze it whole (without --nights and"
          + " --hosts), or archive its traces again into a new archive with loadprof archive"
          + " --out NEW [--night YYYY-MM-DD] TRACE...");
    }
    // The index first: an entry is written after its manifest, so every entry listed now has
    // its manifest listed below, even while another job commits runs.
    String root = ArchiveLayout.resolve(archive, ArchiveLayout.INDEX_DIR + "/x").toString();
    root = root.substring(0, root.length() - 1); // ".../index/"
    // One '*' per level: Hadoop's glob has no '**'.
    List<MatchResult.Metadata> entries = version < 2 ? List.of()
        : match(root + "night=*/host=*/*");
    Map<String, String> manifests = new TreeMap<>(); // run id -> manifest path
    for (MatchResult.Metadata m : match(ArchiveLayout.manifestGlob(archive))) {
      String name = m.resourceId().getFilename();
      manifests.put(name.substring(0, name.length() - ArchiveLayout.AVRO_SUFFIX.length()),
          m.resourceId().toString());
    }
    List<ManifestRef> refs = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    if (version < 2) { // no index
      manifests.values().forEach(p -> refs.add(new ManifestRef(p, "")));
      return new Listing(refs, warnings);
    }
    Set<String> indexed = new TreeSet<>();
    for (MatchResult.Metadata m : entries) {
      String path = m.resourceId().toString();
      Entry e = Entry.of(path.substring(root.length()));
      if (e == null) {
        continue; // not an index entry
      }
      indexed.add(e.runId);
      String manifest = manifests.get(e.runId);
      boolean selected = !selection.isAll() && selection.matches(e.night, e.host);
      if (manifest == null) {
        // An entry is written after its manifest, and manifests are never deleted; empty
        // entries of format 2 were written before it, by jobs that may have failed.
        if (m.sizeBytes() > 0 || version >= 3) {
          IndexEntry content = m.sizeBytes() > 0 ? read(archive, path, e) : null;
          throw ArchiveCorruptException.ofRun(archive, e.runId,
              content == null ? null : content.source(),
              ArchiveLayout.manifest(archive, e.runId).toString(),
              "the run's manifest is missing (its index entry " + path + " is there)", null);
        }
        continue;
      }
      if (!selected) {
        continue;
      }
      if (m.sizeBytes() == 0 && version >= 3) {
        throw ArchiveCorruptException.ofRun(archive, e.runId, null, path,
            "the index entry is empty (damaged)", null);
      }
      if (m.sizeBytes() > 0) {
        read(archive, path, e);
      }
      refs.add(new ManifestRef(manifest, e.jobId));
    }
    for (Map.Entry<String, String> run : manifests.entrySet()) {
      if (indexed.contains(run.getKey())) {
        continue;
      }
      RunManifestRecord m = ArchiveFiles.readManifest(
          FileSystems.matchNewResource(run.getValue(), false));
      String night = m.getNight();
      String host = RunSelection.hostPartition(m.getHost());
      warnings.add("run " + run.getKey() + " of " + archive + " (night " + night + ", host "
          + host + ") has no index entry, so --nights and --hosts could not find it; it is"
          + (selection.isAll() || selection.matches(night, host) ? " read all the same"
              : " not selected") + " (unless a job is archiving it right now). Write it again"
          + " with: "
          + ArchiveCorruptException.repairCommand(archive, run.getKey(), m.getSource()));
      if (!selection.isAll() && selection.matches(night, host)) {
        refs.add(new ManifestRef(run.getValue(), m.getJobId()));
      }
    }
    if (selection.isAll()) {
      manifests.values().forEach(p -> refs.add(new ManifestRef(p, "")));
    }
    return new Listing(refs, warnings);
  }

  /** An index entry's path below index/: night=N/host=H/RUN_ID@JOB. */
  private record Entry(String night, String host, String runId, String jobId) {
    static Entry of(String relative) {
      String[] parts = relative.split("/");
      if (parts.length != 3 || !parts[0].startsWith("night=") || !parts[1].startsWith("host=")) {
        return null;
      }
      int at = parts[2].lastIndexOf(ArchiveLayout.JOB_SEPARATOR);
      if (at <= 0) {
        return null;
      }
      return new Entry(parts[0].substring(6), parts[1].substring(5), parts[2].substring(0, at),
          parts[2].substring(at + 1));
    }
  }

  /** Reads and checks an index entry's content against its name. */
  private static IndexEntry read(String archive, String path, Entry e) {
    byte[] bytes;
    try (InputStream in = Channels.newInputStream(FileSystems.open(
        FileSystems.matchNewResource(path, false)))) {
      bytes = in.readAllBytes();
    } catch (IOException ex) {
      throw ArchiveCorruptException.ofRun(archive, e.runId, null, path,
          "the index entry cannot be read (" + ex + ")", ex);
    }
    IndexEntry content;
    try {
      content = IndexEntry.decode(bytes);
    } catch (IllegalArgumentException ex) {
      throw ArchiveCorruptException.ofRun(archive, e.runId, null, path, ex.getMessage(), ex);
    }
    String why = content == null ? null
        : content.disagreement(e.runId, e.jobId, e.night, e.host);
    if (why != null) {
      throw ArchiveCorruptException.ofRun(archive, e.runId, content.source(), path,
          "the index entry is damaged: " + why, null);
    }
    return content;
  }

  private static List<MatchResult.Metadata> match(String glob) throws IOException {
    return StoreListing.matchGlob(glob); // on S3 without a HEAD per object found
  }
}
