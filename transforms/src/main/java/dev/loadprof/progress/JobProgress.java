package dev.loadprof.progress;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * How far the job in this JVM has got, for the console's progress line: the latest stage begun,
 * and per stage the work done and the total where it is known (bytes read of the inputs' sizes,
 * perf.data pieces decoded of those planned, blocks joined of those parsed, outputs written). The readers and
 * DoFns count here as they go; on the DirectRunner and embedded Flink they run in the CLI's JVM.
 * Plain counters, not Beam metrics: the readers count on threads of their own (read-ahead,
 * parse threads), where Beam has no metrics container.
 */
public final class JobProgress {
  /** The stages in the order a job goes through them (perf.data is decoded, then read). */
  public enum Stage {
    DECODING("decoding", "pieces", 1),
    READING("reading", "bytes", 1),
    JOINING("joining", "blocks", 1),
    WRITING("writing", "outputs", 1);

    public final String label;
    public final String unit;
    public final long unitSize;

    Stage(String label, String unit, long unitSize) {
      this.label = label;
      this.unit = unit;
      this.unitSize = unitSize;
    }
  }

  /**
   * One look at the progress: the current stage, its work done and total (-1: unknown), the
   * work to show (for the reading, the bytes of text read, uncompressed; else the work done),
   * and on the clock of {@link #reset(LongSupplier)} when the stage's first work was counted
   * and when its latest: the rate of a stage is of its own time, also when it was first seen
   * late or ended between two looks.
   */
  public record Snapshot(Stage stage, long done, long total, long shown, long begunNs,
      long lastNs) {}

  private static final int STAGES = Stage.values().length;
  private static final AtomicLongArray DONE = new AtomicLongArray(STAGES);
  private static final AtomicLongArray TOTAL = new AtomicLongArray(STAGES);
  private static final AtomicInteger CURRENT = new AtomicInteger(-1);
  /** Bytes of trace text read, after decompression: what the reading shows it has read. */
  private static final AtomicLong TEXT_READ = new AtomicLong();
  /** Per stage, when its first work (or its start) was counted ({@link #UNTIMED} before). */
  private static final AtomicLongArray BEGUN_NS = new AtomicLongArray(STAGES);
  /** Per stage, when its latest work was counted ({@link #UNTIMED} before). */
  private static final AtomicLongArray LAST_NS = new AtomicLongArray(STAGES);
  /** No time yet: below any clock's reading (System.nanoTime may be negative). */
  private static final long UNTIMED = Long.MIN_VALUE;
  private static volatile LongSupplier clock = System::nanoTime;
  private static volatile boolean drawnOnTerminal;

  private static volatile boolean shownOnConsole;

  static {
    reset(); // no stage timed
  }

  private JobProgress() {}

  /**
   * Says that a console in this JVM speaks for the job's progress: its progress line on a
   * terminal, or silence on purpose (--quiet, a pipe). Readers then log no progress lines of
   * their own; those are for the logs of a cluster's workers, where no console is.
   */
  public static void shownOnConsole() {
    shownOnConsole = true;
  }

  /**
   * Says that the progress line is drawn on a terminal, where the line alone tells what is
   * read: the readers' per-input count lines would only push it up (their counts are in
   * summary.json, and the console's summary says what is off).
   */
  public static void drawnOnTerminal(boolean drawn) {
    drawnOnTerminal = drawn;
  }

  /** Whether the progress line is drawn on a terminal ({@link #drawnOnTerminal}). */
  public static boolean isDrawnOnTerminal() {
    return drawnOnTerminal;
  }

  /** Whether a console in this JVM speaks for the job's progress ({@link #shownOnConsole}). */
  public static boolean isShownOnConsole() {
    return shownOnConsole;
  }

  /** Forgets a previous job's counts (a JVM that runs several jobs, e.g. the tests). */
  public static void reset() {
    reset(System::nanoTime);
  }

  /**
   * Forgets a previous job's counts, and times the next job's stages on {@code nanos}: the
   * clock of the display that draws them.
   */
  public static void reset(LongSupplier nanos) {
    clock = nanos;
    for (int i = 0; i < STAGES; i++) {
      DONE.set(i, 0);
      TOTAL.set(i, 0);
      BEGUN_NS.set(i, UNTIMED);
      LAST_NS.set(i, UNTIMED);
    }
    CURRENT.set(-1);
    TEXT_READ.set(0);
  }

  /** Counts bytes of trace text read, after decompression (the reading's figure shown). */
  public static void advanceText(long bytes) {
    TEXT_READ.addAndGet(bytes);
  }

  /** Adds work to a stage's known total, and marks the stage begun. */
  public static void addTotal(Stage stage, long amount) {
    begin(stage);
    timeWork(stage);
    TOTAL.addAndGet(stage.ordinal(), amount);
  }

  /** Adds work to a stage's known total before the stage begins (blocks parsed, to be joined). */
  public static void expect(Stage stage, long amount) {
    TOTAL.addAndGet(stage.ordinal(), amount);
  }

  /** Counts work done in a stage, and marks the stage begun. */
  public static void advance(Stage stage, long amount) {
    begin(stage);
    DONE.addAndGet(stage.ordinal(), amount);
    timeWork(stage);
  }

  /**
   * Counts work done in a stage that runs alongside an earlier one (windows joined while the
   * trace is still read) without making it the stage shown: the line goes on showing the
   * reading, whose total is known, until the reading is done.
   */
  public static void advanceAlongside(Stage stage, long amount) {
    DONE.addAndGet(stage.ordinal(), amount);
    timeWork(stage);
  }

  /** The latest stage begun, or null before any. */
  public static Snapshot snapshot() {
    int i = CURRENT.get();
    return i < 0 ? null : snapshot(Stage.values()[i]);
  }

  /**
   * A stage as it stands (a stage that is over: as it ended), or null when nothing of it was
   * counted.
   */
  public static Snapshot snapshot(Stage stage) {
    int i = stage.ordinal();
    long begunNs = BEGUN_NS.get(i);
    if (begunNs == UNTIMED) {
      return null;
    }
    long total = TOTAL.get(i);
    long done = DONE.get(i);
    return new Snapshot(stage, done, total > 0 ? total : -1,
        stage == Stage.READING ? TEXT_READ.get() : done, begunNs, LAST_NS.get(i));
  }

  /**
   * Notes the time of a stage's work: its latest, then its first if none was (in that order, so
   * that a stage seen begun has a latest time too).
   */
  private static void timeWork(Stage stage) {
    int i = stage.ordinal();
    long now = clock.getAsLong();
    LAST_NS.accumulateAndGet(i, now, Math::max);
    BEGUN_NS.compareAndSet(i, UNTIMED, now);
  }

  private static void begin(Stage stage) {
    CURRENT.accumulateAndGet(stage.ordinal(), Math::max);
  }
}
