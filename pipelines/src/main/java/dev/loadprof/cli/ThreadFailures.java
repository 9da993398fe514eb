package dev.loadprof.cli;

import dev.loadprof.pipelines.JobWait;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Failures of threads that nobody waits for (a library's, or one of loadprof's that failed
 * outside its job): one line each, never the JVM's stack trace on the console ({@code --debug}
 * prints it). A thread that ran out of heap says nothing at once: the job then fails too and
 * says so in its own one line; if the job still ends well, the heap's line and exit 1 come at
 * the end ({@link #afterJob}), since work may have been lost with the thread; so does a job
 * during which the JVM ran out of heap in a thread whose failure nobody was told of (the
 * launcher's out-of-heap file, {@link JobWait}).
 */
final class ThreadFailures {
  private static final AtomicReference<OutOfMemoryError> OUT_OF_HEAP = new AtomicReference<>();

  private ThreadFailures() {}

  /**
   * Makes this the handler of every thread that has none of its own. The calling thread (main)
   * is one whose failure nobody else will tell: out of heap there says so at once. A class, not
   * a lambda, and the line made now: in a nearly full heap, spinning a lambda's class or
   * concatenating the line is what fails.
   */
  static void install(PrintStream err, boolean debug) {
    try {
      Thread.setDefaultUncaughtExceptionHandler(new Handler(Thread.currentThread(), err, debug));
    } catch (OutOfMemoryError e) {
      // the JVM's own handler then: a heap this small fails before any job
    }
  }

  private static final class Handler implements Thread.UncaughtExceptionHandler {
    private final Thread main;
    private final PrintStream err;
    private final boolean debug;
    private final byte[] outOfHeap;

    Handler(Thread main, PrintStream err, boolean debug) {
      this.main = main;
      this.err = err;
      this.debug = debug;
      this.outOfHeap = ("loadprof: " + OutOfMemory.advice(new OutOfMemoryError(
          "Java heap space"), Runtime.getRuntime().maxMemory()) + System.lineSeparator())
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void uncaughtException(Thread thread, Throwable e) {
      try {
        handle(thread, e, err, debug);
        if (thread == main) {
          afterJob(ExitCode.OK, err);
        }
      } catch (Throwable again) { // out of heap again while saying it
        try {
          err.write(outOfHeap);
          err.flush();
        } catch (Throwable ignored) {
          // the exit code (1) still tells
        }
      }
    }
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
    if (oom == null && JobWait.ranOutOfHeap()) {
      // a thread whose failure nobody heard of (a task's, kept in its Future): the JVM's file
      oom = new OutOfMemoryError("Java heap space, in a thread whose failure was not reported");
    }
    if (oom == null || code != ExitCode.OK) {
      return code;
    }
    err.println("loadprof: " + OutOfMemory.advice(oom, Runtime.getRuntime().maxMemory()));
    return ExitCode.JOB_FAILED;
  }
}
