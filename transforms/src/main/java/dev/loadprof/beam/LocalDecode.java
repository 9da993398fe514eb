package dev.loadprof.beam;

import dev.loadprof.model.Failures;
import dev.loadprof.perfdata.PieceTexts;
import dev.loadprof.perfdata.PieceTask;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A perf.data file's pieces decoded at once on this machine, for a job without a runner
 * ({@link ParseTraces#readLocally}): one perf script per piece, on threads of their own. Every
 * decode is waited for, failed or not, before the call returns: a failed piece used to end the
 * call while the others were still running, and they then added their pieces to the list the
 * caller was deleting (a ConcurrentModificationException: "the job failed:
 * ConcurrentModificationException" in two CI runs of LocalAnalysisTest), or after it (their
 * temporary files left behind).
 */
final class LocalDecode {
  /** Decodes one piece (DecodePerfData.decode). */
  interface PieceDecoder {
    PieceTask decode(PieceTask task) throws IOException;
  }

  private static final AtomicInteger POOLS = new AtomicInteger();

  private LocalDecode() {}

  /**
   * The pieces decoded, in their order; when one fails, the others' text files are deleted and
   * the first failure in piece order is thrown, once every decode has ended.
   */
  static List<PieceTask> all(List<PieceTask> planned, PieceDecoder decoder) throws IOException {
    if (planned.size() <= 1) {
      List<PieceTask> one = new ArrayList<>();
      for (PieceTask task : planned) {
        one.add(decoder.decode(task));
      }
      return one;
    }
    int pool = POOLS.incrementAndGet();
    AtomicInteger n = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(
        Math.min(planned.size(), Runtime.getRuntime().availableProcessors()), r -> {
          Thread t = new Thread(r, "loadprof-decode-" + pool + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    List<Future<PieceTask>> decodes = new ArrayList<>();
    for (PieceTask task : planned) {
      decodes.add(threads.submit(() -> decoder.decode(task)));
    }
    threads.shutdown();
    List<PieceTask> decoded = new ArrayList<>();
    Throwable failure = null;
    boolean interrupted = false;
    for (Future<PieceTask> d : decodes) {
      while (true) {
        try {
          decoded.add(d.get());
          break;
        } catch (ExecutionException e) {
          failure = failure != null ? failure : e.getCause();
          break;
        } catch (InterruptedException e) {
          // Stop the decodes (perf is destroyed), and go on waiting for them to end.
          interrupted = true;
          threads.shutdownNow();
          failure = failure != null ? failure : new InterruptedIOException(
              "interrupted while perf script decoded the pieces");
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      PieceTexts.delete(decoded);
      throw Failures.asIOException(failure);
    }
    return decoded;
  }
}
