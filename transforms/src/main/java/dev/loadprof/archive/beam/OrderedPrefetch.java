package dev.loadprof.archive.beam;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Work on each item of a list done on a few threads ahead of its use, the results handed on in
 * the items' order: for the archive's small reads per run (a manifest, a figures file), which on
 * a store wait ~10 ms each and on local disk decode on another core while this thread uses the
 * previous run's. At most {@code ahead} results are done or under way and not yet handed on, so
 * memory is bounded whatever the number of items. An item's failure is thrown, as it was thrown
 * by the work, when its turn comes: the items before it were handed on, none after it is, as if
 * the work were done one item after the other on the calling thread.
 */
public final class OrderedPrefetch {
  /** Threads: enough to overlap the requests' latency, few enough for a shared machine. */
  public static final int THREADS = 8;
  /** Results at most ahead of their use: bounds what prefetched runs hold in memory. */
  public static final int AHEAD = 4 * THREADS;

  private OrderedPrefetch() {}

  /** What is done with each result, in order; may throw what the job's reading throws. */
  public interface Use<O, E extends Exception> {
    void accept(O result) throws E;
  }

  /**
   * {@code work} of each item on up to {@code threads} threads, at most {@code ahead} items
   * ahead, each result given to {@code use} on this thread in the items' order.
   */
  public static <I, O, E extends Exception> void forEach(List<I> items, int threads, int ahead,
      Function<I, O> work, Use<O, E> use) throws E {
    if (items.size() <= 1 || threads <= 1) {
      for (I item : items) {
        use.accept(work.apply(item));
      }
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, items.size()), r -> {
      Thread t = new Thread(r, "loadprof-prefetch");
      t.setDaemon(true);
      return t;
    });
    try {
      Deque<Future<O>> pending = new ArrayDeque<>();
      int next = 0;
      while (next < items.size() || !pending.isEmpty()) {
        while (next < items.size() && pending.size() < Math.max(1, ahead)) {
          I item = items.get(next++);
          pending.add(pool.submit(() -> work.apply(item)));
        }
        use.accept(resultOf(pending.poll()));
      }
    } finally {
      pool.shutdownNow(); // after a failure, what was started ahead is not waited for
    }
  }

  /** The result, or the work's own exception (unchecked, as work may throw no other). */
  private static <O> O resultOf(Future<O> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading archived runs", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
