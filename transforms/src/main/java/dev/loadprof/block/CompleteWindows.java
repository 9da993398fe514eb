package dev.loadprof.block;

import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * Tells a reader of the blocks, as the trace goes on, which windows are complete: no lane will
 * hand on another block of them. A lane's next block is at or after its open window, and a lane
 * first seen later starts at most one window behind the run's latest record (older records are
 * refused as out of order), so every window before both is complete. A reader can then join a
 * window while the rest of the trace is read, and memory stays bounded by the open windows.
 */
final class CompleteWindows {
  /** How many lanes have their open block in each window. */
  private final TreeMap<Long, Integer> openLanes = new TreeMap<>();
  private LongConsumer listener;
  private long announced = Long.MIN_VALUE;

  void listen(LongConsumer completeBefore) {
    this.listener = completeBefore;
  }

  void opened(long window) {
    openLanes.merge(window, 1, Integer::sum);
  }

  void moved(long from, long to) {
    openLanes.computeIfPresent(from, (w, n) -> n == 1 ? null : n - 1);
    opened(to);
  }

  /** Announces the windows before min(every open window, the window of latestNs - windowNs). */
  void announce(long latestNs, long windowNs) {
    if (listener == null || openLanes.isEmpty()) {
      return;
    }
    long before = Math.min(openLanes.firstKey(), Math.floorDiv(latestNs - windowNs, windowNs));
    if (before > announced) {
      announced = before;
      listener.accept(before);
    }
  }
}
