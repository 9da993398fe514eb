package dev.loadprof.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Sorts a big list on two threads: each half sorted on its own (one of them on the common pool),
 * then the halves merged. {@code Arrays.parallelSort} sorts on one thread when the common pool
 * has one worker, which it has on a 2-core machine. Both halves are sorted stably and merged
 * with ties to the first half, so the result is exactly {@code List.sort}'s (a stable sort).
 */
public final class TwoCoreSort {
  /** Below this, one thread: handing half over to another costs more than it saves. */
  static final int MIN_PARALLEL = 8192;

  private TwoCoreSort() {}

  public static <T> void sort(List<T> list, Comparator<? super T> order) {
    int n = list.size();
    if (n < MIN_PARALLEL || Runtime.getRuntime().availableProcessors() < 2) {
      list.sort(order);
      return;
    }
    List<T> low = new ArrayList<>(list.subList(0, n / 2));
    List<T> high = new ArrayList<>(list.subList(n / 2, n));
    CompletableFuture<Void> lowSorted = CompletableFuture.runAsync(() -> low.sort(order));
    high.sort(order);
    lowSorted.join();
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < low.size() && j < high.size()) {
      // Ties to the low half: as a stable sort would.
      list.set(k++, order.compare(high.get(j), low.get(i)) < 0 ? high.get(j++) : low.get(i++));
    }
    while (i < low.size()) {
      list.set(k++, low.get(i++));
    }
    while (j < high.size()) {
      list.set(k++, high.get(j++));
    }
  }
}
