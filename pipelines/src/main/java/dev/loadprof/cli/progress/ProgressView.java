package dev.loadprof.cli.progress;

import dev.loadprof.progress.JobProgress;
import java.util.function.Supplier;

/**
 * One look at a job's progress as the progress line draws it: the stage's label, the unit of
 * its work (and how many counted items make one), work done, and the total (-1: unknown).
 */
public record ProgressView(String label, String unit, long unitSize, long done, long total) {
  /** The job in this JVM ({@link JobProgress}: DirectRunner, embedded Flink); null before. */
  public static final Supplier<ProgressView> LOCAL = () -> of(JobProgress.snapshot());

  static ProgressView of(JobProgress.Snapshot s) {
    return s == null ? null
        : new ProgressView(s.stage().label, s.stage().unit, s.stage().unitSize, s.done(),
            s.total());
  }
}
