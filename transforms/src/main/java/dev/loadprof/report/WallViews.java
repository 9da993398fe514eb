package dev.loadprof.report;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.wall.StateTimeline;
import dev.loadprof.wall.ThreadStateSummary;
import dev.loadprof.wall.ThreadStates;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the processes' wall views after the read, on every core: each process's replay, thread
 * states and timeline in one task (its replay dropped once they are done), and the critical path
 * of a process that gets one in a task of its own, started as soon as its replay is done. The
 * critical path is the longest of this work (on the 2.2 GB trace of bench/critical-cost.sh, 2.2
 * s against 1.5 s for the same process's states and timeline), so it must not wait behind them
 * (bench/RESULTS.md section 32). Every task reads only its own process's values and returns new
 * objects: the results do not depend on the order the tasks run in.
 */
final class WallViews {
  private WallViews() {}

  /** A process's whole-wall view: its thread states, report.html's timeline, its path or null. */
  record Wall(ThreadStateSummary states, StateTimeline timeline, CriticalPath criticalPath) {}

  /** One process's wall view, in the steps the tasks run. */
  interface Task {
    ThreadStates.Replayed replay();

    /** The thread states and timeline (the wall's path is null). */
    Wall states(ThreadStates.Replayed replayed);

    /** Asked once every task is made. */
    boolean wantsCriticalPath();

    CriticalPath criticalPath(ThreadStates.Replayed replayed);
  }

  /**
   * The tasks' walls, in the tasks' order; alongside runs on this thread meanwhile.
   */
  static List<Wall> compute(List<Task> tasks, Runnable alongside) {
    // At most 3 wall threads: each holds a process's replay while it works, and a system-wide
    // recording's hundreds of small processes gain little from more.
    int cores = Runtime.getRuntime().availableProcessors();
    ExecutorService states = Executors.newFixedThreadPool(Math.max(1, Math.min(3, cores - 1)),
        daemon("loadprof-wall"));
    // One thread for the paths: a run has one subject process mostly, whose path is the work
    // the others wait for; the wall threads take the rest meanwhile.
    ExecutorService paths = Executors.newSingleThreadExecutor(daemon("loadprof-critical-path"));
    try {
      // The processes that get a path first, so their paths start first.
      List<Integer> order = new ArrayList<>();
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < tasks.size(); i++) {
          if (tasks.get(i).wantsCriticalPath() == (pass == 0)) {
            order.add(i);
          }
        }
      }
      List<CompletableFuture<Wall>> walls = new ArrayList<>(tasks.size());
      tasks.forEach(t -> walls.add(null));
      for (int i : order) {
        Task t = tasks.get(i);
        CompletableFuture<ThreadStates.Replayed> replayed = new CompletableFuture<>();
        CompletableFuture<CriticalPath> path = t.wantsCriticalPath()
            ? replayed.thenApplyAsync(t::criticalPath, paths)
            : CompletableFuture.completedFuture(null);
        CompletableFuture<Wall> wall = CompletableFuture.supplyAsync(() -> {
          ThreadStates.Replayed r;
          try {
            r = t.replay();
          } catch (RuntimeException | Error e) {
            replayed.completeExceptionally(e);
            throw e;
          }
          replayed.complete(r);
          return t.states(r);
        }, states);
        walls.set(i, wall.thenCombine(path,
            (w, p) -> new Wall(w.states(), w.timeline(), p)));
      }
      alongside.run();
      List<Wall> out = new ArrayList<>();
      for (CompletableFuture<Wall> w : walls) {
        out.add(w.join());
      }
      return out;
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    } finally {
      states.shutdownNow();
      paths.shutdownNow();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
