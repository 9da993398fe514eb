package dev.loadprof.archive.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.beam.sdk.values.KV;

/**
 * The runs' checks of {@link ReadArchive}'s "Check and fingerprint runs" step without a runner:
 * on a few threads, since each is a handful of small reads that wait on the store. The block
 * files of a run a night index lists are checked when they are read, if they are (a nightly
 * reads only the runs whose figures are not stored). The first
 * failure in the runs' order is thrown, as a sequential check would.
 */
final class LocalRunChecks {
  /** Threads: enough to overlap the requests' latency, few enough for a shared machine. */
  static final int THREADS = 8;

  private LocalRunChecks() {}

  /** {@link ReadArchive.FingerprintFn#fingerprinted} of each (archive, ref), in order. */
  static List<KV<String, ReadArchive.ManifestToRead>> fingerprinted(
      List<KV<String, ArchiveListing.ManifestRef>> refs) {
    if (refs.size() <= 1) {
      List<KV<String, ReadArchive.ManifestToRead>> out = new ArrayList<>();
      refs.forEach(r -> out.add(ReadArchive.FingerprintFn.fingerprinted(r.getKey(),
          r.getValue(), false)));
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, refs.size()), r -> {
      Thread t = new Thread(r, "loadprof-run-checks");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<KV<String, ReadArchive.ManifestToRead>>> futures = new ArrayList<>();
      for (KV<String, ArchiveListing.ManifestRef> r : refs) {
        futures.add(pool.submit(() -> ReadArchive.FingerprintFn.fingerprinted(r.getKey(),
            r.getValue(), false)));
      }
      List<KV<String, ReadArchive.ManifestToRead>> out = new ArrayList<>();
      for (Future<KV<String, ReadArchive.ManifestToRead>> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking archived runs", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
