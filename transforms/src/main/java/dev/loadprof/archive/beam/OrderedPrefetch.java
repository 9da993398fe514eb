package dev.loadprof.archive.beam;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.ToIntFunction;

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
  /**
   * Light items (of weight 0, {@link #forEach(List, int, int, ToIntFunction, Function, Use)}) at
   * most ahead of their use, per unit of {@code ahead}.
   */
  static final int LIGHT_PER_AHEAD = 32;

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
    forEach(items, threads, ahead, item -> 1, work, use);
  }

  /**
   * The same, where an item of {@code weight} 0 is light (its result is small, or kept once used
   * anyway) and does not count against {@code ahead}: at most {@code ahead} heavy items and
   * {@link #LIGHT_PER_AHEAD} times as many items in all are ahead of their use. A nightly's
   * runs are thousands whose figures are stored among a night's few whose blocks are read: with
   * every run counted, the window held about one of those at a time, and their reads waited on
   * the store one run after the other (bench/RESULTS.md section 39).
   */
  public static <I, O, E extends Exception> void forEach(List<I> items, int threads, int ahead,
      ToIntFunction<I> weight, Function<I, O> work, Use<O, E> use) throws E {
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
      Deque<Integer> weights = new ArrayDeque<>();
      int heavyBound = Math.max(1, ahead);
      int allBound = heavyBound * LIGHT_PER_AHEAD;
      int heavy = 0;
      int next = 0;
      while (next < items.size() || !pending.isEmpty()) {
        while (next < items.size() && pending.size() < allBound) {
          I item = items.get(next);
          int w = weight.applyAsInt(item) > 0 ? 1 : 0;
          if (w > 0 && heavy >= heavyBound) {
            break;
          }
          next++;
          heavy += w;
          weights.add(w);
          pending.add(pool.submit(() -> work.apply(item)));
        }
        heavy -= weights.poll();
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
