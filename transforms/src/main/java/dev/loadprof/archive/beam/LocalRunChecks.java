package dev.loadprof.archive.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.values.KV;

/**
 * The runs' checks of {@link ReadArchive}'s "Check and fingerprint runs" step without a runner:
 * on a few threads, since each is a handful of small reads that wait on the store. Block files
 * are checked when they are read, if they are (a nightly reads only the runs whose figures are
 * not stored). The first
 * failure in the runs' order is thrown, as a sequential check would.
 */
final class LocalRunChecks {
  private LocalRunChecks() {}

  /** {@link ReadArchive.FingerprintFn#checked} of each (archive, ref), in order. */
  static List<ReadArchive.FingerprintFn.Checked> checked(
      List<KV<String, ArchiveListing.ManifestRef>> refs) {
    List<Callable<ReadArchive.FingerprintFn.Checked>> checks = new ArrayList<>();
    for (KV<String, ArchiveListing.ManifestRef> r : refs) {
      checks.add(() -> ReadArchive.FingerprintFn.checked(r.getKey(), r.getValue()));
    }
    return ManyAtOnce.call(checks, "loadprof-run-checks");
  }
}
