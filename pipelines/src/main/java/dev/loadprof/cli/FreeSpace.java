package dev.loadprof.cli;

import java.io.File;
import java.io.IOException;

/**
 * A full disk said in one line: before a job, a temp dir too full to start one (the JVM's
 * libraries and perf.data's decoded text are written there); after a failure, "No space left
 * on device" among its causes, however deep the runner wrapped it.
 */
final class FreeSpace {
  /** Below this, a job's temp files (snappy's library, decoded perf.data pieces) cannot fit. */
  static final long TEMP_NEEDED_BYTES = 16L << 20;
  static final String ENOSPC = "No space left on device";

  private FreeSpace() {}

  /** The line to print when {@code tempDir} has too little room for a job, or null. */
  static String tempDirTooFull(File tempDir) {
    long free = tempDir.getUsableSpace();
    if (!tempDir.isDirectory() || free >= TEMP_NEEDED_BYTES) {
      return null; // a missing temp dir is the JVM's own error to report
    }
    return "the temp dir " + tempDir + " has " + (free >> 10) + " KB free; a job needs "
        + (TEMP_NEEDED_BYTES >> 20) + " MB there: free some space, or give another with"
        + " LOADPROF_JAVA_OPTS=-Djava.io.tmpdir=DIR";
  }

  /** The line to print when the disk filled up during the job, or null. */
  static String diskFull(Throwable failure) {
    for (int depth = 0; failure != null && depth < 50; depth++, failure = failure.getCause()) {
      if (failure instanceof IOException && String.valueOf(failure.getMessage())
          .contains(ENOSPC)) {
        return "the job failed: no space left on device (the disk of --out or of the temp dir "
            + RunTempDir.userTempDir() + " is full): free some space and run again, or give"
            + " -o DIR on another disk";
      }
    }
    return null;
  }
}
