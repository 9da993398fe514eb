package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the runs of an archive that a {@link RunSelection} asks for. All runs: one listing of
 * runs/. Some nights or hosts: the index entries of those nights (or, hosts only, of every
 * night), each pointing at runs/RUN_ID.avro and read and checked ({@link IndexEntry}); blocks/
 * is never listed. When night indexes cover the selected nights, runs/ is not listed either (it
 * grows with the whole archive, not with the selection): a run's manifest is named by its run
 * id, and one that is missing fails the job where it is read ({@link RunChecks}), naming the run.
 * Otherwise the names of runs/ and of the whole index are listed (names only) and compared: an
 * index entry without its manifest is damage, and a run without an index entry (a job killed
 * between the two, or a deleted entry) is found, read if it is selected, and said, never
 * silently dropped.
 */
public final class ArchiveListing {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveListing.class);

  private ArchiveListing() {}

  /**
   * A manifest to read, the job whose index entry led to it ("" when it was listed from runs/
   * directly), and the run as a night index lists it (null when none does: then the client
   * checks the run itself, as before night indexes). An entry of another job than the
   * manifest's is stale and not read.
   */
  public record ManifestRef(String path, String indexedJobId, NightIndex.Run indexed,
      IndexEntryRef entry, boolean nightIndexed) implements Serializable {
    public ManifestRef(String path, String indexedJobId) {
      this(path, indexedJobId, null, null, false);
    }

    ManifestRef(String path, String indexedJobId, NightIndex.Run indexed, IndexEntryRef entry) {
      this(path, indexedJobId, indexed, entry, indexed != null);
    }

    /**
     * A run a night index of its job covers whose line is not read yet: the client listed it
     * by its index entry's name alone and left the rest to the job ({@link RunChecks}).
     */
    public boolean deferred() {
      return nightIndexed && indexed == null && entry != null && entry.source() == null;
    }

    /** The run's id as its night index line or index entry names it (null when neither). */
    public String runId() {
      return indexed != null ? indexed.runId() : entry != null ? entry.name().runId() : null;
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

    /**
     * What to throw when the manifest is not there, or null when that is no damage (a run
     * listed from runs/ and gone since, or an empty entry of format 2, of a job that may have
     * failed): an index entry or a night index led here, and both are written after the
     * manifest, which is never deleted.
     */
    public ArchiveCorruptException missing(String archive) {
      if (entry != null) {
        return missingManifest(archive, entry.name().runId(),
            indexed != null ? indexed.source() : entry.source(), path, entry.path());
      }
      if (indexed != null) {
        return missingManifest(archive, indexed.runId(), indexed.source(), path, null);
      }
      return null;
    }
  }

  /** A run whose index entry (or, when {@code entryPath} is null, night index) is there. */
  static ArchiveCorruptException missingManifest(String archive, String runId, String source,
      String manifestPath, String entryPath) {
    return ArchiveCorruptException.ofRun(archive, runId, source, manifestPath,
        "the run's manifest is missing (" + (entryPath != null ? "its index entry " + entryPath
            + " is there" : "its night index lists it") + ")", null);
  }

  /**
   * The manifests to read, what to tell the user about the archive's index, and how many of
   * the runs no night index lists.
   */
  public record Listing(List<ManifestRef> refs, List<String> warnings, int unindexed,
      boolean nightIndexed) {
    Listing(List<ManifestRef> refs, List<String> warnings) {
      this(refs, warnings, (int) refs.stream()
          .filter(r -> r.indexed() == null && !r.deferred()).count(), false);
    }

    /** The refs, with the runs no night index lists counted as {@code listed} has them. */
    static Listing of(List<ManifestRef> refs, List<ManifestRef> listed, List<String> warnings) {
      return new Listing(refs, warnings, new Listing(listed, warnings).unindexed(), false);
    }
  }

  /**
   * The listing the job's workers start from (in this JVM or on a runner): night indexes read,
   * many at once. What it finds that the client could not (a run a night index lists without
   * its index entry) is logged here, where it is found: the client reads no night index.
   */
  public static List<ManifestRef> list(String archive, RunSelection selection)
      throws IOException {
    return list(archive, selection, w -> LOG.warn(w));
  }

  /** {@link #list}, what it finds to say given to {@code said}. */
  public static List<ManifestRef> list(String archive, RunSelection selection,
      Consumer<String> said) throws IOException {
    return list(archive, selection, said, null);
  }

  /**
   * {@link #list}, a night's night indexes taken from its night figures file where {@code
   * nights} (unless null) has one ({@link NightFigures}).
   */
  static List<ManifestRef> list(String archive, RunSelection selection,
      Consumer<String> said, NightFigures.Packs nights) throws IOException {
    Listing listing = listChecked(archive, ArchiveLayout.formatVersion(archive), selection, true,
        nights, true);
    if (listing.nightIndexed()) {
      listing.warnings().forEach(said);
    }
    return listing.refs();
  }

  /**
   * The listing of an archive whose marker states {@code version}. The index is listed for the
   * selected nights only (every night when none is selected), names only. Where night indexes
   * are among them, the night indexes of the selected partitions are read (many at once) if
   * {@code readNightIndexes}, and the index entries of runs they list are not: a night of many
   * runs costs a listing and one object per host and job. The client reads none (it has nothing
   * to check in them unless an --event or --window was asked for): a run whose job wrote a
   * night index of its partition is then known by its index entry's name alone, left to the
   * job ({@link ManifestRef#deferred}), and a night costs its index's listing whatever its hosts
   * and runs. Entries no night index covers (archives written before them, or a job killed
   * before writing one) are read one by one, as before. runs/ is listed only when no night
   * index is among the selected nights' (or none are selected): a night's requests do not grow
   * with the archive.
   *
   * @throws IllegalArgumentException with a message for the user when the archive is of a format
   *     without partitions and a selection was asked for
   * @throws ArchiveCorruptException naming the run and the command that repairs it, when an
   *     index entry is damaged or its manifest is missing
   */
  public static Listing listChecked(String archive, int version, RunSelection selection,
      boolean readNightIndexes) throws IOException {
    return listChecked(archive, version, selection, readNightIndexes, null, false);
  }

  /**
   * {@link #listChecked}, for the job ({@code forJob}: its names taken from what this thread's
   * client listed, where it did: {@link ClientListings}) or for the client (its names kept).
   */
  private static Listing listChecked(String archive, int version, RunSelection selection,
      boolean readNightIndexes, NightFigures.Packs nights, boolean forJob) throws IOException {
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
    // The whole archive: runs/ is listed while the index is (ListingAhead). A run committed
    // meanwhile may then have its entry listed and not its manifest: that is checked below.
    ListingAhead runsAhead = wholeIndex && version >= 2
        ? ListingAhead.start(ArchiveLayout.manifestGlob(archive), forJob) : null;
    if (version >= 2) {
      // One '*' per level: Hadoop's glob has no '**'.
      for (String night : wholeIndex ? List.of("*") : selection.nights()) {
        entries.addAll(match(root + "night=" + night + "/host=*/*", forJob));
      }
      if (!wholeIndex && (version < 3 || entries.stream().noneMatch(m -> m.resourceId().getFilename()
          .startsWith(NightIndex.NAME_PREFIX)))) {
        // No night index (an archive written before them): the whole index, as then, so that
        // a run whose entry is missing is still found.
        entries = match(root + "night=*/host=*/*", forJob);
        wholeIndex = true;
      }
    }
    if (!wholeIndex) { // nights selected, and night indexes among them (format 3 on)
      return byNightIndexes(archive, root, entries, version, selection, readNightIndexes,
          nights);
    }
    Map<String, String> manifests = new TreeMap<>(); // run id -> manifest path
    for (MatchResult.Metadata m : runsAhead != null ? runsAhead.get()
        : match(ArchiveLayout.manifestGlob(archive), forJob)) {
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
    // Night indexes are written from format 3 on (format 2's entries were empty). The client
    // listing the whole archive reads none: a run whose job wrote a night index of its
    // partition is left to the job, which reads them (a year of nights costs the client no
    // request a night index).
    boolean deferToJob = version >= 3 && selection.isAll() && !readNightIndexes;
    Map<String, NightIndex.Run> lines = version < 3 || deferToJob ? Map.of()
        : nightIndexLines(archive, root, entries, selection, nights);
    Set<String> nightIndexes = deferToJob ? nightIndexesOf(root, entries, selection) : Set.of();
    Map<String, List<IndexEntryRef>> entriesOfRun = new TreeMap<>();
    Map<String, NightIndex.Run> linesOfEntries = new TreeMap<>(); // run id -> its entry's line
    Set<String> indexed = new TreeSet<>();
    for (IndexEntryRef entry : IndexEntryRef.listed(root, entries, version)) {
      String path = entry.path();
      IndexEntryRef.Name e = entry.name();
      indexed.add(e.runId());
      entriesOfRun.computeIfAbsent(e.runId(), k -> new ArrayList<>()).add(entry);
      String manifest = manifests.get(e.runId());
      boolean selected = !selection.isAll() && selection.matches(e.night(), e.host());
      NightIndex.Run line = lines.get(e.runId() + ArchiveLayout.JOB_SEPARATOR + e.jobId());
      if (line != null) {
        linesOfEntries.merge(e.runId(), line, (a, b) -> null); // two entries: read the manifest
      }
      if (manifest == null && runsAhead != null) {
        ResourceId late = ArchiveLayout.manifest(archive, e.runId()); // listed as runs/ was
        if (ArchiveLayout.exists(late)) {
          manifest = late.toString();
          manifests.put(e.runId(), manifest); // as if listed: the whole archive's runs are these
        }
      }
      if (manifest == null) {
        // An entry is written after its manifest, and manifests are never deleted; empty
        // entries of format 2 were written before it, by jobs that may have failed.
        if (entry.sizeBytes() > 0 || version >= 3) {
          IndexEntry content = entry.sizeBytes() > 0 ? IndexEntryRef.content(archive, path, e) : null;
          throw missingManifest(archive, e.runId(), content == null ? null : content.source(),
              ArchiveLayout.manifest(archive, e.runId()).toString(), path);
        }
        continue;
      }
      if (!selected) {
        continue;
      }
      if (line != null) {
        // The night index says all the client needs; the entry is read by the job's workers.
        refs.add(new ManifestRef(manifest, e.jobId(), line, entry));
        continue;
      }
      entry.check(archive);
      refs.add(new ManifestRef(manifest, e.jobId()));
    }
    // Runs without an index entry: every run of runs/ (every night's entries were listed).
    for (Map.Entry<String, String> run : manifests.entrySet()) {
      if (!indexed.contains(run.getKey())) {
        RunManifestRecord m = ArchiveFiles.readManifest(
            FileSystems.matchNewResource(run.getValue(), false));
        unindexed(archive, selection, run.getKey(), run.getValue(), m, refs, warnings);
      }
    }
    if (selection.isAll()) {
      manifests.forEach((runId, p) -> {
        List<IndexEntryRef> its = entriesOfRun.getOrDefault(runId, List.of());
        IndexEntryRef.Name e = its.size() == 1 ? its.get(0).name() : null;
        if (e != null && nightIndexes.contains(partitionOfJob(e.night(), e.host(), e.jobId()))) {
          refs.add(new ManifestRef(p, "", null, its.get(0), true)); // the job reads its line
        } else {
          refs.add(new ManifestRef(p, "", linesOfEntries.get(runId), null));
        }
      });
    }
    return Listing.of(readWhereTwoEntries(archive, refs), refs, warnings);
  }

  /**
   * Selected nights that night indexes cover: their index entries and, if {@code read}, night
   * indexes; no listing of runs/. A run a night index lists is left to the job's workers ({@link
   * RunChecks}: its entry, manifest and block files, a missing manifest named as damage there),
   * as is, unread, a run whose job wrote a night index of its partition. An entry no night
   * index covers (its job was killed before writing one) is read here, and its run checked from
   * the client as before night indexes. A run a night index lists whose entry is gone has its
   * manifest read and is said (by the job: the client does not read the lines). A run with
   * neither (a job killed between its manifest and its entry) cannot be found without listing
   * runs/: the whole archive's listing finds it, and archiving its trace again indexes it.
   */
  private static Listing byNightIndexes(String archive, String root,
      List<MatchResult.Metadata> entries, int version, RunSelection selection, boolean read,
      NightFigures.Packs nights) {
    Set<String> nightIndexes = nightIndexesOf(root, entries, selection);
    Map<String, NightIndex.Run> lines = read
        ? nightIndexLines(archive, root, entries, selection, nights) : Map.of();
    List<ManifestRef> refs = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    Set<String> indexed = new TreeSet<>();
    for (IndexEntryRef entry : IndexEntryRef.listed(root, entries, version)) {
      IndexEntryRef.Name e = entry.name();
      indexed.add(e.runId());
      if (!selection.matches(e.night(), e.host())) {
        continue;
      }
      String manifest = ArchiveLayout.manifest(archive, e.runId()).toString();
      NightIndex.Run line = lines.get(e.runId() + ArchiveLayout.JOB_SEPARATOR + e.jobId());
      boolean nightIndexed = nightIndexes.contains(partitionOfJob(e.night(), e.host(), e.jobId()));
      // With its night index's line, or its line not read yet, the entry is read by the job's
      // workers; without, here.
      boolean leftToJob = line != null || (nightIndexed && !read);
      refs.add(new ManifestRef(manifest, e.jobId(), line,
          leftToJob ? entry : entry.read(archive), nightIndexed));
    }
    for (NightIndex.Run line : lines.values()) {
      if (indexed.add(line.runId())) { // listed by a night index, without an index entry
        ResourceId file = ArchiveLayout.manifest(archive, line.runId());
        if (!ArchiveLayout.exists(file)) {
          throw missingManifest(archive, line.runId(), line.source(), file.toString(), null);
        }
        RunManifestRecord m = ArchiveFiles.readManifest(file);
        if (lines.containsKey(line.runId() + ArchiveLayout.JOB_SEPARATOR + m.getJobId())) {
          unindexed(archive, selection, line.runId(), file.toString(), m, refs, warnings);
        } // else a line of a run replaced since: its entry is elsewhere
      }
    }
    Listing listing = Listing.of(readWhereTwoEntries(archive, refs), refs, warnings);
    return new Listing(listing.refs(), listing.warnings(), listing.unindexed(), true);
  }

  /** "NIGHT/HOST/JOB" of each night index among the listed files of the selected partitions. */
  private static Set<String> nightIndexesOf(String root, List<MatchResult.Metadata> entries,
      RunSelection selection) {
    Set<String> out = new TreeSet<>();
    for (MatchResult.Metadata m : entries) {
      String[] parts = nightIndexPath(root, m, selection);
      if (parts != null) {
        out.add(partitionOfJob(parts[0], parts[1], parts[2]));
      }
    }
    return out;
  }

  private static String partitionOfJob(String night, String host, String jobId) {
    return night + "/" + host + "/" + jobId;
  }

  /**
   * {night, host, job} of a listed night index of a selected partition, or null for any other
   * file.
   */
  private static String[] nightIndexPath(String root, MatchResult.Metadata m,
      RunSelection selection) {
    String path = m.resourceId().toString();
    String[] parts = path.substring(root.length()).split("/");
    if (parts.length != 3 || !parts[2].startsWith(NightIndex.NAME_PREFIX)
        || !parts[0].startsWith("night=") || !parts[1].startsWith("host=")) {
      return null;
    }
    String night = parts[0].substring(6);
    String host = parts[1].substring(5);
    if (!selection.isAll() && !selection.matches(night, host)) {
      return null;
    }
    return new String[] {night, host, parts[2].substring(NightIndex.NAME_PREFIX.length())};
  }

  /**
   * The refs, those of a run selected by two index entries (of two jobs: a run archived again
   * after its manifest was lost leaves the old entry, listed by the old job's night index)
   * checked from the client instead: only its manifest says which entry counts.
   */
  private static List<ManifestRef> readWhereTwoEntries(String archive, List<ManifestRef> refs) {
    Map<String, Integer> perManifest = new TreeMap<>();
    refs.forEach(r -> perManifest.merge(r.path(), 1, Integer::sum));
    List<ManifestRef> out = new ArrayList<>();
    for (ManifestRef r : refs) {
      boolean two = perManifest.get(r.path()) > 1 && (r.indexed() != null || r.deferred())
          && r.entry() != null;
      out.add(two ? new ManifestRef(r.path(), r.indexedJobId(), null, r.entry().read(archive),
          false) : r);
    }
    return out;
  }

  /** A run without an index entry: said, and read when selected. */
  private static void unindexed(String archive, RunSelection selection, String runId,
      String manifestPath, RunManifestRecord m, List<ManifestRef> refs, List<String> warnings) {
    String night = m.getNight();
    String host = RunSelection.hostPartition(m.getHost());
    boolean selected = selection.isAll() || selection.matches(night, host);
    warnings.add("run " + runId + " of " + archive + " (night " + night + ", host " + host
        + ") has no index entry, so --nights and --hosts could not find it; it is"
        + (selected ? " read all the same" : " not selected") + " (unless a job is archiving"
        + " it right now). Write it again with: "
        + ArchiveCorruptException.repairCommand(archive, runId, m.getSource()));
    if (!selection.isAll() && selected) {
      refs.add(new ManifestRef(manifestPath, m.getJobId()));
    }
  }

  /**
   * The runs the night indexes of the selected partitions list, by "RUN_ID@JOB" (the job of
   * the manifest the line was written from).
   */
  private static Map<String, NightIndex.Run> nightIndexLines(String archive, String root,
      List<MatchResult.Metadata> entries, RunSelection selection, NightFigures.Packs nights) {
    List<String[]> indexes = new ArrayList<>(); // {path, night, host, job}
    Map<String, Map<String, Long>> listedByNight = new TreeMap<>(); // night -> name -> size
    for (MatchResult.Metadata m : entries) {
      String[] parts = nightIndexPath(root, m, selection);
      if (parts != null) {
        String path = m.resourceId().toString();
        indexes.add(new String[] {path, parts[0], parts[1], parts[2]});
        listedByNight.computeIfAbsent(parts[0], k -> new TreeMap<>())
            .put(path.substring(root.length()), m.sizeBytes());
      }
    }
    if (nights != null) {
      nights.lookUp(archive, listedByNight); // a night's file holds its night indexes
    }
    Map<String, NightIndex.Run> lines = new TreeMap<>();
    // Many at once: on a store each is a request's latency, not a core's work.
    OrderedPrefetch.forEach(indexes, OrderedPrefetch.THREADS, OrderedPrefetch.AHEAD,
        i -> nights == null ? NightIndexes.read(i[0], i[1], i[2], i[3])
            : nights.nightIndex(archive, i[1], i[0].substring(root.length()),
                bytes -> NightIndexes.read(i[0], i[1], i[2], i[3], bytes)), index -> {
          for (NightIndex.Run r : index.runs()) {
            lines.put(r.runId() + ArchiveLayout.JOB_SEPARATOR + r.jobId(),
                r.listedIn(index.night(), index.host(), index.jobId()));
          }
        });
    return lines;
  }

  private static List<MatchResult.Metadata> match(String glob, boolean forJob)
      throws IOException {
    List<MatchResult.Metadata> listed = forJob ? ClientListings.takeForJob(glob) : null;
    if (listed != null) {
      return listed;
    }
    listed = StoreListing.matchGlob(glob); // on S3 without a HEAD per object found
    if (!forJob) {
      ClientListings.listedByClient(glob, listed);
    }
    return listed;
  }
}
