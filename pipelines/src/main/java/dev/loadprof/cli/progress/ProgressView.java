package dev.loadprof.cli.progress;

import dev.loadprof.progress.JobProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One look at a job's progress as the progress line draws it: the stage's label, the unit of
 * the work shown (and how many counted items make one), work done and the total (-1: unknown)
 * that make the percentage and the estimate, and the work shown with its rate: the same as the
 * work done, except for a local reading, whose done and total are bytes of the input files
 * (compressed or not) and whose work shown is the bytes of text read. Where the source knows
 * them ({@code timed}), the times of the stage's first and latest work, on the display's clock.
 */
public record ProgressView(String label, String unit, long unitSize, long done, long total,
    long shown, boolean timed, long begunNs, long lastNs) {
  /** A view whose stage's times are not known: its rate is of the time the display saw it. */
  public ProgressView(String label, String unit, long unitSize, long done, long total,
      long shown) {
    this(label, unit, unitSize, done, total, shown, false, 0, 0);
  }

  /** A view whose work shown is its work done. */
  public ProgressView(String label, String unit, long unitSize, long done, long total) {
    this(label, unit, unitSize, done, total, done);
  }

  /** Whether the stage's work is all done (its total known). */
  boolean complete() {
    return total > 0 && done >= total;
  }

  /** The job in this JVM ({@link JobProgress}: DirectRunner, embedded Flink); null before. */
  public static final ProgressSource LOCAL = new ProgressSource() {
    @Override
    public ProgressView get() {
      return of(JobProgress.snapshot());
    }

    @Override
    public ProgressView ended(String label) {
      JobProgress.Stage stage = stageOf(label);
      return stage == null ? null : of(JobProgress.snapshot(stage));
    }

    @Override
    public List<ProgressView> endedBetween(String from, String to) {
      JobProgress.Stage first = stageOf(from);
      JobProgress.Stage last = stageOf(to);
      List<ProgressView> between = new ArrayList<>();
      if (first == null || last == null) {
        return between; // not a stage of the job's: nothing is known to lie between
      }
      for (int i = first.ordinal() + 1; i < last.ordinal(); i++) {
        ProgressView view = of(JobProgress.snapshot(JobProgress.Stage.values()[i]));
        if (view != null) {
          between.add(view);
        }
      }
      return between;
    }

    private JobProgress.Stage stageOf(String label) {
      for (JobProgress.Stage stage : JobProgress.Stage.values()) {
        if (stage.label.equals(label)) {
          return stage;
        }
      }
      return null;
    }
  };

  static ProgressView of(JobProgress.Snapshot s) {
    return s == null ? null
        : new ProgressView(s.stage().label, s.stage().unit, s.stage().unitSize, s.done(),
            s.total(), s.shown(), true, s.begunNs(), s.lastNs());
  }

  /**
   * Where a display's views come from: the stage now, and, where the source keeps them, stages
   * as they ended, so that a stage that ended between two redraws keeps its true last line.
   */
  public interface ProgressSource extends Supplier<ProgressView> {
    /** The stage {@code label} as it ended, or null where the source does not keep it. */
    default ProgressView ended(String label) {
      return null;
    }

    /**
     * The stages begun after {@code from} and before {@code to}, in order, as they ended; none
     * where the source does not keep them.
     */
    default List<ProgressView> endedBetween(String from, String to) {
      return List.of();
    }
  }
}
