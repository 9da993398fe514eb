package dev.loadprof.cli.progress;

import dev.loadprof.progress.JobProgress;
import java.util.function.Supplier;

/**
 * One look at a job's progress as the progress line draws it: the stage's label, the unit of
 * the work shown (and how many counted items make one), work done and the total (-1: unknown)
 * that make the percentage and the estimate, and the work shown with its rate: the same as the
 * work done, except for a local reading, whose done and total are bytes of the input files
 * (compressed or not) and whose work shown is the bytes of text read.
 */
public record ProgressView(String label, String unit, long unitSize, long done, long total,
    long shown) {
  /** A view whose work shown is its work done. */
  public ProgressView(String label, String unit, long unitSize, long done, long total) {
    this(label, unit, unitSize, done, total, done);
  }

  /** The job in this JVM ({@link JobProgress}: DirectRunner, embedded Flink); null before. */
  public static final Supplier<ProgressView> LOCAL = () -> of(JobProgress.snapshot());

  static ProgressView of(JobProgress.Snapshot s) {
    return s == null ? null
        : new ProgressView(s.stage().label, s.stage().unit, s.stage().unitSize, s.done(),
            s.total(), s.shown());
  }
}
