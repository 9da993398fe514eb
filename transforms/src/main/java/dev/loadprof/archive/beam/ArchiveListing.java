package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
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
   * A manifest to read, the job whose index entry led to it ("" when it was listed from runs/
   * directly), and the run as a night index lists it (null when none does: then the client
   * checks the run itself, as before night indexes). An entry of another job than the
   * manifest's is stale and not read.
   */
  public record ManifestRef(String path, String indexedJobId, NightIndex.Run indexed,
      IndexEntryRef entry) implements Serializable {
    public ManifestRef(String path, String indexedJobId) {
      this(path, indexedJobId, null, null);
    }

    /**
     * The index entry that selected the run, not read yet: read by the job's workers ({@link
     * RunChecks}), as the client read it before night indexes; null when none is to be read.
     */
    public void checkEntry(String archive) {
      if (entry != null) {
        entry.check(archive);
      }
    }

    public boolean accepts(RunManifestRecord manifest) {
      return indexedJobId.isEmpty() || indexedJobId.equals(manifest.getJobId());
    }
  }

  /**
   * The manifests to read, what to tell the user about the archive's index, and how many of
   * the runs no night index lists.
   */
  public record Listing(List<ManifestRef> refs, List<String> warnings, int unindexed) {
    Listing(List<ManifestRef> refs, List<String> warnings) {
      this(refs, warnings, (int) refs.stream().filter(r -> r.indexed() == null).count());
    }
  }

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
    return listChecked(archive, ArchiveLayout.formatVersion(archive), selection);
  }

  /**
   * The same for an archive whose marker states {@code version}. The index is listed for the
   * selected nights only (every night when none is selected), names only; the night indexes
   * among them of the selected partitions are read, and the index entries of runs they list
   * are not: a night of many runs costs a listing and one object per host and job. Entries no
   * night index covers (archives written before them, or a job killed before writing one) are
   * read one by one, as before.
   */
  public static Listing listChecked(String archive, int version, RunSelection selection)
      throws IOException {
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
    List<MatchResult.Metadata> entries = new ArrayList<>();
    boolean wholeIndex = selection.nights().isEmpty();
    if (version >= 2) {
      // One '*' per level: Hadoop's glob has no '**'.
      for (String night : wholeIndex ? List.of("*") : selection.nights()) {
        entries.addAll(match(root + "night=" + night + "/host=*/*"));
      }
      if (!wholeIndex && (version < 3 || entries.stream().noneMatch(m -> m.resourceId().getFilename()
          .startsWith(NightIndex.NAME_PREFIX)))) {
        // No night index (an archive written before them): the whole index, as then, so that
        // a run whose entry is missing is still found.
        entries = match(root + "night=*/host=*/*");
        wholeIndex = true;
      }
    }
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
    // Night indexes are written from format 3 on (format 2's entries were empty).
    Map<String, NightIndex.Run> lines = version < 3 ? Map.of()
        : nightIndexLines(archive, root, entries, selection);
    Map<String, NightIndex.Run> linesOfEntries = new TreeMap<>(); // run id -> its entry's line
    Set<String> indexed = new TreeSet<>();
    for (MatchResult.Metadata m : entries) {
      String path = m.resourceId().toString();
      Entry e = Entry.of(path.substring(root.length()));
      if (e == null) {
        continue; // not an index entry (a night index, read above)
      }
      indexed.add(e.runId);
      String manifest = manifests.get(e.runId);
      boolean selected = !selection.isAll() && selection.matches(e.night, e.host);
      NightIndex.Run line = lines.get(e.runId + ArchiveLayout.JOB_SEPARATOR + e.jobId);
      if (line != null) {
        linesOfEntries.merge(e.runId, line, (a, b) -> null); // two entries: read the manifest
      }
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
      IndexEntryRef entry = new IndexEntryRef(path, m.sizeBytes(), version, e);
      if (line != null) {
        // The night index says all the client needs; the entry is read by the job's workers.
        refs.add(new ManifestRef(manifest, e.jobId, line, entry));
        continue;
      }
      entry.check(archive);
      refs.add(new ManifestRef(manifest, e.jobId));
    }
    // Runs without an index entry: every run of runs/ when every night's entries were listed;
    // else (a night index read instead of the whole index) the runs a night index lists.
    Set<String> linedOnly = new TreeSet<>();
    lines.values().forEach(r -> linedOnly.add(r.runId()));
    linedOnly.removeAll(indexed);
    for (Map.Entry<String, String> run : manifests.entrySet()) {
      if (indexed.contains(run.getKey())
          || !wholeIndex && !linedOnly.contains(run.getKey())) {
        continue;
      }
      RunManifestRecord m = ArchiveFiles.readManifest(
          FileSystems.matchNewResource(run.getValue(), false));
      String night = m.getNight();
      String host = RunSelection.hostPartition(m.getHost());
      if (!wholeIndex && !lines.containsKey(run.getKey() + ArchiveLayout.JOB_SEPARATOR
          + m.getJobId())) {
        continue; // a night index's line of a run replaced since: its entry is elsewhere
      }
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
      manifests.forEach((runId, p) -> {
        NightIndex.Run line = linesOfEntries.get(runId);
        refs.add(new ManifestRef(p, "", line, null));
      });
    }
    return new Listing(refs, warnings);
  }

  /**
   * The runs the night indexes of the selected partitions list, by "RUN_ID@JOB" (the job of
   * the manifest the line was written from).
   */
  private static Map<String, NightIndex.Run> nightIndexLines(String archive, String root,
      List<MatchResult.Metadata> entries, RunSelection selection) {
    Map<String, NightIndex.Run> lines = new TreeMap<>();
    for (MatchResult.Metadata m : entries) {
      String path = m.resourceId().toString();
      String[] parts = path.substring(root.length()).split("/");
      if (parts.length != 3 || !parts[2].startsWith(NightIndex.NAME_PREFIX)
          || !parts[0].startsWith("night=") || !parts[1].startsWith("host=")) {
        continue;
      }
      String night = parts[0].substring(6);
      String host = parts[1].substring(5);
      if (!selection.isAll() && !selection.matches(night, host)) {
        continue;
      }
      NightIndex index = NightIndexes.read(path, night, host,
          parts[2].substring(NightIndex.NAME_PREFIX.length()));
      for (NightIndex.Run r : index.runs()) {
        lines.put(r.runId() + ArchiveLayout.JOB_SEPARATOR + r.jobId(), r);
      }
    }
    return lines;
  }

  /** An index entry of a selected run: its path and size as listed, and what its name says. */
  record IndexEntryRef(String path, long sizeBytes, int version, Entry name)
      implements Serializable {
    /** Reads and checks the entry (an empty one is damage from format 3 on). */
    void check(String archive) {
      if (sizeBytes == 0 && version >= 3) {
        throw ArchiveCorruptException.ofRun(archive, name.runId, null, path,
            "the index entry is empty (damaged)", null);
      }
      if (sizeBytes > 0) {
        read(archive, path, name);
      }
    }
  }

  /** An index entry's path below index/: night=N/host=H/RUN_ID@JOB. */
  record Entry(String night, String host, String runId, String jobId) implements Serializable {
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
