package dev.loadprof.archive.beam;

import dev.loadprof.schemas.RunManifestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.values.KV;

/**
 * The runs' checks of {@link ReadArchive}'s "Check and fingerprint runs" step without a runner:
 * on a few threads ({@link OrderedPrefetch}), since each is a handful of small reads that wait
 * on the store. The block files of a run a night index lists are checked when they are read, if
 * they are (a nightly reads only the runs whose figures are not stored). The first failure in
 * the runs' order is thrown, as a sequential check would.
 */
final class LocalRunChecks {
  private LocalRunChecks() {}

  /**
   * {@link ReadArchive.FingerprintFn#checked} of each (archive, ref), in order (null for an
   * index entry with no run to read): what each read is kept, so the job reads no manifest twice.
   */
  static List<ReadArchive.Fingerprinted> fingerprinted(
      List<KV<String, ArchiveListing.ManifestRef>> refs, NightFigures.Packs packs) {
    List<ReadArchive.Fingerprinted> out = new ArrayList<>();
    // A run of a night's figures file read has its manifest from there, unread: such a run
    // is light work (no request, and its result is kept anyway), so the window ahead counts
    // only the runs whose manifest is read. A nightly's night to compute is one run in thirty
    // among runs whose manifests came with their nights' files: with every run counted, about
    // two of its manifests were read at a time (1 s for 100 runs on S3; bench/RESULTS.md §43).
    OrderedPrefetch.forEach(refs, OrderedPrefetch.THREADS, OrderedPrefetch.AHEAD,
        r -> packs.holdsManifest(r) ? 0 : 1, r -> {
      byte[] packed = packs.manifest(r);
      ReadArchive.Fingerprinted f = ReadArchive.FingerprintFn.checked(r.getKey(), r.getValue(),
          packed, packs.manifestHolder(r));
      if (packed != null && f != null && f.run() != null) {
        keepOnlyWhatBlocksNeed(f.manifest()); // its run is made: see there
      }
      return f;
    }, out::add);
    return out;
  }

  /**
   * For a run whose manifest came with its night's figures file, once its run is made from it
   * ({@link ReadArchive.Fingerprinted#run}): of the manifest it keeps only what is read of it after (its
   * night, job and blocks' version, its block files, counts and health, whose thread lanes its
   * block files take: {@link ReadArchive.ReadManifestFn#read}, {@link ReadArchive#readBlocksLocally} if its figures
   * turn out unreadable). A nightly holds its 3,000 runs' manifests to its end, and their
   * process names and loss timelines were a third of its live heap (boxed longs, half a
   * million strings), which its collector copied and then grew the heap for in a full
   * collection. Its night's file is there, so no night file is written from it (whose line is
   * checked against the whole manifest's checksum).
   */
  private static void keepOnlyWhatBlocksNeed(RunManifestRecord manifest) {
    manifest.setLossTimeline(null);
    manifest.setProcessNames(Map.of());
    manifest.setMalformedExamples(List.of());
    manifest.setWarnings(List.of());
    manifest.setBuildIds(Map.of());
    manifest.setThreadForks(List.of());
  }
}
