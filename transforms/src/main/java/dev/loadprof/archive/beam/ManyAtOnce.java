package dev.loadprof.archive.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Small reads of an archive (manifests, night indexes) made many at once: on an object store
 * each waits for a request's latency, not for a core, so one after another they cost the sum
 * of the latencies. The results come back in the order asked; the first failure (in that
 * order) is thrown as it was thrown.
 */
final class ManyAtOnce {
  /** Reads at once: enough to hide a store's ~10 ms per request, few enough for its limits. */
  static final int THREADS = 8;

  private ManyAtOnce() {}

  static <T> List<T> call(List<Callable<T>> reads, String threadName) {
    List<T> out = new ArrayList<>();
    if (reads.size() <= 1) {
      for (Callable<T> read : reads) {
        out.add(callOne(read));
      }
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, reads.size()), r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> read : reads) {
        futures.add(pool.submit(read));
      }
      for (Future<T> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the archive", e);
    } catch (ExecutionException e) {
      throw unchecked(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> T callOne(Callable<T> read) {
    try {
      return read.call();
    } catch (Exception e) {
      throw unchecked(e);
    }
  }

  private static RuntimeException unchecked(Throwable cause) {
    if (cause instanceof RuntimeException r) {
      return r;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    return new IllegalStateException(cause);
  }
}
