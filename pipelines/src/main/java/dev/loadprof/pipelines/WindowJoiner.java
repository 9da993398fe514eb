package dev.loadprof.pipelines;

import dev.loadprof.beam.JoinSamplesWithLoad;
import dev.loadprof.load.CpuTimeline;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Failures;
import dev.loadprof.model.RunInfo;
import dev.loadprof.progress.JobProgress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Joins the windows of local traces on a thread of its own while the traces are still read, and
 * merges each window's per-process accumulators as it goes: memory holds the windows not yet
 * complete, not the whole trace. The windows are joined and merged one at a time in the order
 * they complete, which the trace alone decides, so every run gives the same outputs.
 *
 * <p>The accumulators and health sums belong to the joining thread until it has ended: {@link
 * #processes} and {@link #health} wait for that, and so does {@link #close}, so that no join
 * is still changing them (or reading a window's blocks) once the joiner is left.
 */
final class WindowJoiner implements AutoCloseable {
  /** Complete windows waiting for the joiner before the reader waits for it in turn. */
  private static final int QUEUED_WINDOWS = 4;

  /** What is done with one complete window (the run: null until its trace has been read). */
  interface WindowJoin {
    void join(List<EventBlock> blocks, RunInfo run);
  }

  private final SampleSelection selection;
  private final WindowJoin join;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "loadprof-join");
    t.setDaemon(true);
    return t;
  });
  private final Semaphore room = new Semaphore(QUEUED_WINDOWS);
  private final Map<String, ProcessAccumulator> processes = new TreeMap<>();
  private final Map<String, Map<String, Long>> health = new TreeMap<>();
  private volatile Throwable failure;
  private volatile boolean closed;

  WindowJoiner(SampleSelection selection) {
    this.selection = selection;
    this.join = this::joinAndMerge;
  }

  /** For tests: {@code join} instead of joining and merging. */
  WindowJoiner(SampleSelection selection, WindowJoin join) {
    this.selection = selection;
    this.join = join;
  }

  /** One trace's blocks, each window handed to the joiner once it is complete. */
  Trace trace() {
    return new Trace();
  }

  /** Waits for every window handed on; the per-process accumulators, by (run, pid) key. */
  Map<String, ProcessAccumulator> processes() throws IOException {
    finishAll();
    return processes;
  }

  /** The health counters the joins added, per run id. */
  Map<String, Map<String, Long>> health() throws IOException {
    finishAll();
    return health;
  }

  /**
   * Once every window handed on so far is joined, on the joining thread: takes the run's
   * per-process accumulators (in key order) and the health its joins added out of this joiner
   * and hands them to {@code then}, so that a job that needs each run alone holds one at a time.
   */
  void whenJoined(String runId,
      BiConsumer<List<ProcessAccumulator>, Map<String, Map<String, Long>>> then) {
    thread.execute(() -> {
      try {
        if (failure == null) {
          List<ProcessAccumulator> accs = new ArrayList<>();
          processes.values().removeIf(acc -> acc.runId.equals(runId) && accs.add(acc));
          Map<String, Long> joined = health.remove(runId);
          then.accept(accs, joined == null ? Map.of() : Map.of(runId, joined));
        }
      } catch (Throwable t) {
        failure = t;
      }
    });
  }

  private void finishAll() throws IOException {
    thread.shutdown();
    try {
      while (!thread.awaitTermination(1, TimeUnit.SECONDS)) {
        // the last windows are still being joined
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while joining the windows", e);
    }
    rethrow();
  }

  private void rethrow() throws IOException {
    Throwable t = failure;
    if (t != null) {
      throw Failures.asIOException(t);
    }
  }

  /**
   * Drops the windows not begun, and waits for the one being joined: a window's join is CPU
   * work on its own blocks, bounded by the window, so the wait is too.
   */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
    boolean interrupted = false;
    while (true) {
      try {
        if (thread.awaitTermination(1, TimeUnit.SECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true; // the wait goes on: the join must end before its results are left
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void submit(List<EventBlock> blocks, RunInfo run) {
    try {
      room.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading", e);
    }
    thread.execute(() -> {
      try {
        if (failure == null && !closed) {
          join.join(blocks, run);
        }
      } catch (Throwable t) {
        failure = t;
      } finally {
        room.release();
      }
    });
  }

  /** One window's blocks: run intervals built on each, the samples weighed by load, merged. */
  private void joinAndMerge(List<EventBlock> blocks, RunInfo run) {
    for (EventBlock b : blocks) {
      CpuTimeline.replay(b, true);
    }
    String runId = blocks.get(0).runId;
    for (ProcessAccumulator acc : JoinSamplesWithLoad.join(blocks, selection, run)) {
      processes.computeIfAbsent(JoinSamplesWithLoad.runPidKey(runId, acc.pid),
          k -> new ProcessAccumulator(acc.runId, acc.pid)).mergeFrom(acc);
    }
    for (EventBlock b : blocks) {
      if (!b.health.isEmpty()) {
        Map<String, Long> sums = health.computeIfAbsent(runId, k -> new TreeMap<>());
        b.health.forEach((k, v) -> sums.merge(k, v, Long::sum));
      }
    }
    // Counted, not shown: the progress line shows the reading, whose total is known, until
    // every trace is read (LocalAnalysis then begins the joining stage).
    JobProgress.advanceAlongside(JobProgress.Stage.JOINING, blocks.size());
  }

  /**
   * The blocks of one trace by window. With a selection that keeps every sample the join needs
   * nothing of the run that only its end tells, so complete windows go to the joiner as the trace
   * is read; otherwise (--time needs the run's span) they all wait for its end.
   */
  final class Trace {
    private final TreeMap<Long, List<EventBlock>> open = new TreeMap<>();
    private long completeBefore = Long.MIN_VALUE;

    /** Called on the reading thread for each block, in the trace's order. */
    synchronized void add(EventBlock b) {
      if (b.window < completeBefore) {
        // BlockBuilder said the window was complete: joining it twice would halve its loads.
        throw new IllegalStateException("a block of window " + b.window + " of " + b.runId
            + " came after the windows before " + completeBefore + " were complete");
      }
      open.computeIfAbsent(b.window, w -> new ArrayList<>()).add(b);
    }

    /** Called on the reading thread: no more blocks will come for windows before this one. */
    synchronized void completeBefore(long window) {
      if (!selection.isAll()) {
        return;
      }
      completeBefore = window;
      while (!open.isEmpty() && open.firstKey() < window) {
        submit(open.pollFirstEntry().getValue(), null);
      }
    }

    /** The trace is read: its remaining windows, joined with what the run now knows. */
    synchronized void finish(RunInfo run) throws IOException {
      rethrow();
      while (!open.isEmpty()) {
        submit(open.pollFirstEntry().getValue(), run);
      }
    }
  }
}
