package dev.loadprof.archive.beam;

import java.util.ArrayList;
import java.util.List;
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
    // A run of a night's figures file read has its manifest from there, unread.
    OrderedPrefetch.forEach(refs, OrderedPrefetch.THREADS, OrderedPrefetch.AHEAD,
        r -> ReadArchive.FingerprintFn.checked(r.getKey(), r.getValue(), packs.manifest(r),
            packs.manifestHolder(r)), out::add);
    return out;
  }
}
