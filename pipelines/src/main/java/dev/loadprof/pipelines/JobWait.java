package dev.loadprof.pipelines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.joda.time.Duration;

/**
 * Runs a job on Beam and waits for it, failing it when this JVM ran out of heap in a thread
 * whose failure the runner never heard of. The DirectRunner hands an error of one of its worker
 * threads to the waiting job through a queue; out of heap, handing it on can fail too, and the
 * job then waits forever with its threads idle: an archive of a 1.6 GB trace waited 6 minutes
 * after "GC overhead limit exceeded" until it was killed (bench/RESULTS.md section 40). The
 * launcher asks the JVM to make a file the first time it runs out of heap
 * (-XX:OnOutOfMemoryError, the file named by {@link #MARKER_PROPERTY}); the job is waited for on
 * a thread of its own while this one watches for the file, and once it is there this throws an
 * OutOfMemoryError, which the CLI turns into its one line, whether the job still runs or ended.
 */
public final class JobWait {
  /** System property: the file the JVM makes when it first runs out of heap (the launcher's). */
  public static final String MARKER_PROPERTY = "loadprof.oomMarker";
  /** How often a running job looks for the file. */
  static final Duration POLL = Duration.millis(200);

  private JobWait() {}

  /**
   * Runs {@code p} and waits until it ends; out of heap meanwhile, anywhere in this JVM, throws
   * OutOfMemoryError, even when the job ended well: the DirectRunner may drop the bundle whose
   * worker failed and end the job as done.
   */
  public static PipelineResult run(Pipeline p) {
    Path marker = marker();
    if (marker == null || !"DirectRunner".equals(p.getOptions().getRunner().getSimpleName())) {
      PipelineResult result = p.run(); // another runner says its workers' failures itself
      result.waitUntilFinish();
      if (ranOutOfHeap()) {
        throw new OutOfMemoryError("Java heap space, in a thread of this JVM during the job");
      }
      return result;
    }
    // The DirectRunner's run() waits for the job (blockOnRun, its default: without it, a job
    // out of heap lost its error far more often, in 6 of 6 runs against 0 of 4); it waits on a
    // thread of its own here, so that this one can watch for the file meanwhile.
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread job = new Thread(() -> {
      try {
        PipelineResult result = p.run();
        result.waitUntilFinish(); // at once on the DirectRunner, which waited in run()
        outcome.set(result);
      } catch (RuntimeException | Error e) {
        outcome.set(e);
      }
    }, "loadprof-job");
    job.setDaemon(true); // a job whose runner lost its error never ends: the JVM exits anyway
    job.start();
    while (true) {
      try {
        job.join(POLL.getMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the job", e);
      }
      boolean ended = !job.isAlive();
      if (ranOutOfHeap()) {
        throw new OutOfMemoryError("Java heap space, in a worker thread of the job's runner");
      }
      if (ended) {
        Object o = outcome.get();
        if (o instanceof RuntimeException e) {
          throw e;
        }
        if (o instanceof Error e) {
          throw e;
        }
        return (PipelineResult) o;
      }
    }
  }

  /**
   * Removes a file of that name left by an earlier process of the same pid, and this process's
   * own when it exits. Called first in main.
   */
  public static void claimMarker() {
    Path marker = marker();
    if (marker == null) {
      return;
    }
    try {
      Files.deleteIfExists(marker);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          Files.deleteIfExists(marker);
        } catch (IOException e) {
          // a file in the temp dir
        }
      }, "loadprof-oom-marker-cleanup"));
    } catch (IOException | RuntimeException e) {
      // without it, a job that runs out of heap still fails where the runner hears of it
    }
  }

  /** Whether this JVM ran out of heap (its launcher's file is there), anywhere, so far. */
  public static boolean ranOutOfHeap() {
    Path marker = marker();
    return marker != null && Files.exists(marker);
  }

  /** The file the JVM makes when out of heap, or null when not run by the launcher. */
  static Path marker() {
    String path = System.getProperty(MARKER_PROPERTY);
    return path == null || path.isBlank() ? null : Paths.get(path);
  }
}
