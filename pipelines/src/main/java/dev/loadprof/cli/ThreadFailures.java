package dev.loadprof.cli;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Failures of threads that nobody waits for (a library's, or one of loadprof's that failed
 * outside its job): one line each, never the JVM's stack trace on the console ({@code --debug}
 * prints it). A thread that ran out of heap says nothing at once: the job then fails too and
 * says so in its own one line; if the job still ends well, the heap's line and exit 1 come at
 * the end ({@link #afterJob}), since work may have been lost with the thread.
 */
final class ThreadFailures {
  private static final AtomicReference<OutOfMemoryError> OUT_OF_HEAP = new AtomicReference<>();

  private ThreadFailures() {}

  /** Makes this the handler of every thread that has none of its own. */
  static void install(PrintStream err, boolean debug) {
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> handle(thread, e, err, debug));
  }

  static void handle(Thread thread, Throwable e, PrintStream err, boolean debug) {
    if (debug) {
      synchronized (err) {
        err.println("loadprof: thread " + thread.getName() + " failed:");
        e.printStackTrace(err);
      }
    }
    OutOfMemoryError oom = FailureCauses.find(e, OutOfMemoryError.class);
    if (oom != null) {
      OUT_OF_HEAP.compareAndSet(null, oom);
    } else if (!debug) {
      err.println("loadprof: thread " + thread.getName() + " failed: " + e
          + " (--debug prints its stack trace)");
    }
  }

  /**
   * The exit code of a job that ended with {@code code}: a job that ended well while a thread
   * ran out of heap fails, with the heap's one line.
   */
  static int afterJob(int code, PrintStream err) {
    OutOfMemoryError oom = OUT_OF_HEAP.getAndSet(null);
    if (oom == null || code != ExitCode.OK) {
      return code;
    }
    err.println("loadprof: " + OutOfMemory.advice(oom, Runtime.getRuntime().maxMemory()));
    return ExitCode.JOB_FAILED;
  }
}
