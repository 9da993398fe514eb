package dev.loadprof.cli.progress;

import dev.loadprof.progress.JobProgress;
import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The progress line of a running job on stderr: the stage, its percentage, bar, work read, rate,
 * time elapsed and time left, as many of those as fit the terminal's width ({@link
 * ProgressLine}), redrawn in place twice a second from a source of {@link ProgressView}s:
 * {@link JobProgress} for a job in this JVM, the cluster's REST API for a job on a Flink cluster
 * ({@link FlinkClusterProgress}). Nothing is drawn in a job's first 2 s, so short jobs print
 * exactly what they did before. On a terminal one line is redrawn through every stage and
 * erased at the end, so that only the job's summary stays; elsewhere (--progress into a file)
 * each stage keeps its last line. Drawing depends only on this display's ticks and clock, which
 * tests give by hand. A log line written to System.err meanwhile starts on a line of its own,
 * and the next redraw puts the progress under it.
 */
public final class ProgressDisplay implements AutoCloseable {
  static final long SHOW_AFTER_MS = 2_000;
  static final int REDRAW_MS = 500;
  /** The width of a line that goes to a file, which nothing wraps. */
  private static final int FILE_WIDTH = 100;

  private final PrintStream err;
  private final boolean terminal;
  private final int width;
  private final PrintStream systemErr = System.err;
  private final ScheduledExecutorService ticker;
  private final LongSupplier clock;
  private final long startNs;
  private final ProgressView.ProgressSource source;
  private final boolean enabled;
  private final AutoCloseable sourceStop;
  /** The stage on the line, and where and when its line began. */
  private String shown;
  private ProgressView stageStart;
  private long stageStartNs;
  private boolean lineDrawn;
  /** The view of the stage's line last drawn. */
  private ProgressView drawnView;
  /** When the last line was drawn. */
  private long drawnNs;
  /** After close: a tick that was already on its way draws nothing more. */
  private boolean closed;

  private ProgressDisplay(PrintStream err, boolean enabled, boolean terminal,
      ProgressView.ProgressSource source, AutoCloseable sourceStop, LongSupplier clock,
      boolean ticking) {
    this.err = err;
    this.clock = clock;
    this.startNs = clock.getAsLong();
    this.source = source;
    this.sourceStop = sourceStop;
    this.terminal = terminal;
    this.width = terminal ? Terminal.columns() : FILE_WIDTH;
    this.enabled = enabled;
    this.ticker = enabled && ticking ? Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "loadprof-progress");
      t.setDaemon(true);
      return t;
    }) : null;
  }

  /**
   * A display that draws on {@code err} when enabled, and does nothing otherwise; on a
   * terminal a log line clears the progress line first, elsewhere it starts a new line.
   */
  public static ProgressDisplay start(boolean enabled, boolean terminal, PrintStream err) {
    return start(enabled, terminal, err, ProgressView.LOCAL, () -> { });
  }

  /**
   * As {@link #start(boolean, boolean, PrintStream)}, drawing what {@code source} tells;
   * {@code sourceStop} is closed with the display.
   */
  static ProgressDisplay start(boolean enabled, boolean terminal, PrintStream err,
      ProgressView.ProgressSource source, AutoCloseable sourceStop) {
    return start(enabled, terminal, err, source, sourceStop, System::nanoTime, true);
  }

  /**
   * As above, on {@code clock} (ns); with {@code ticking} false no thread ticks: the caller calls
   * {@link #tick} (tests, on a clock of their own).
   */
  static ProgressDisplay start(boolean enabled, boolean terminal, PrintStream err,
      ProgressView.ProgressSource source, AutoCloseable sourceStop, LongSupplier clock,
      boolean ticking) {
    JobProgress.reset(clock); // the job's stages are timed on this display's clock
    JobProgress.shownOnConsole(); // even when not drawn: in a pipe or with --quiet, stay quiet
    JobProgress.drawnOnTerminal(enabled && terminal);
    ProgressDisplay display = new ProgressDisplay(err, enabled, terminal, source, sourceStop,
        clock, ticking);
    if (enabled) {
      if (err == System.err) {
        System.setErr(new PrintStream(new LineAware(display), true));
      }
      if (display.ticker != null) {
        display.ticker.scheduleAtFixedRate(display::tick, REDRAW_MS, REDRAW_MS,
            TimeUnit.MILLISECONDS);
      }
    }
    return display;
  }

  /** One redraw: the line of the source's progress now, once the job is 2 s old. */
  synchronized void tick() {
    try {
      long now = clock.getAsLong();
      if (closed || !enabled || now - startNs < SHOW_AFTER_MS * 1_000_000L) {
        return;
      }
      ProgressView view = source.get();
      if (view == null) {
        return;
      }
      if (!view.label().equals(shown)) {
        boolean first = shown == null;
        if (!first && !terminal) {
          drawEnded(now);
          for (ProgressView between : source.endedBetween(shown, view.label())) {
            // A stage begun and ended between two redraws: in a file it has its line too.
            finishLine();
            beginLine(between, now, true);
            draw(between, now);
          }
        }
        finishLine();
        beginLine(view, now, first || view.timed() && view.begunNs() > drawnNs);
      }
      draw(view, now);
    } catch (RuntimeException e) {
      // The progress line is a courtesy; it must never disturb the job.
    }
  }

  /**
   * The line of a stage begins: its rate and estimate count from {@code view} now, or, where the
   * source times it and none of its work was drawn ({@code unseen}: begun before the display's
   * first line, or since its last), from the stage's start.
   */
  private void beginLine(ProgressView view, long now, boolean unseen) {
    shown = view.label();
    stageStart = view;
    stageStartNs = now;
    if (unseen && view.timed()) {
      stageStart = new ProgressView(view.label(), view.unit(), view.unitSize(), 0,
          view.total(), 0);
      stageStartNs = view.begunNs();
    }
  }

  /**
   * The line of {@code view} at {@code now}: its rate and estimate are of the work since its
   * line began, up to the stage's last work once it is complete where the source times it; its
   * time elapsed is then the job's at that last work.
   */
  private String line(ProgressView view, long now) {
    long end = view.timed() && view.complete() ? Math.max(stageStartNs, view.lastNs()) : now;
    return ProgressLine.render(view, stageStart, end - stageStartNs, end - startNs, width);
  }

  /**
   * In a file, a stage that ended since the last redraw keeps its line as it ended, not as it
   * was last drawn (a reading drawn at 44% that ended before the next redraw).
   */
  private void drawEnded(long now) {
    if (!terminal && shown != null) {
      redrawLast(source.ended(shown), now);
    }
  }

  /**
   * Draws the stage's last view once more where it tells more than the line drawn before: more
   * work, or (in place, a stage not complete) the time it has taken.
   */
  private void redrawLast(ProgressView last, long now) {
    if (last == null) {
      return;
    }
    boolean more = drawnView == null || last.done() != drawnView.done()
        || last.shown() != drawnView.shown() || last.total() != drawnView.total();
    if (more || lineDrawn && !last.complete()) {
      draw(last, now);
    }
  }

  private void draw(ProgressView view, long now) {
    String line = line(view, now);
    synchronized (err) {
      err.print('\r' + line + (terminal ? "\033[K" : ""));
      err.flush();
      lineDrawn = true;
      drawnView = view;
      drawnNs = now;
    }
  }

  /** Before another writer's text: the progress line makes room. */
  private void makeRoom() {
    synchronized (err) {
      if (lineDrawn) {
        err.print(terminal ? "\r\033[K" : "\n");
        lineDrawn = false;
      }
    }
  }

  /** System.err while the display runs: every write makes room first. */
  private static final class LineAware extends java.io.OutputStream {
    private final ProgressDisplay display;

    LineAware(ProgressDisplay display) {
      this.display = display;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      synchronized (display.err) {
        display.makeRoom();
        display.err.write(b, off, len);
      }
    }

    @Override
    public void flush() {
      display.err.flush();
    }
  }

  /**
   * Before the next stage's line: on a terminal the line is redrawn in place; elsewhere the
   * finished stage keeps its last line.
   */
  private void finishLine() {
    synchronized (err) {
      if (lineDrawn && !terminal) {
        err.println();
        lineDrawn = false;
      }
    }
  }

  private ProgressView lastView() {
    try {
      return source.get();
    } catch (RuntimeException e) {
      return null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (enabled) {
      if (terminal) {
        makeRoom(); // the summary follows on a clean line: no progress stays on screen
      } else {
        ProgressView last = lastView();
        long now = clock.getAsLong(); // the last line shows where the job ended
        if (last != null && last.label().equals(shown)) {
          redrawLast(last, now);
        } else {
          drawEnded(now);
        }
        finishLine();
      }
      JobProgress.drawnOnTerminal(false);
      if (System.err != systemErr) {
        System.setErr(systemErr);
      }
    }
    try {
      sourceStop.close();
    } catch (Exception e) {
      // stopping the source's poller cannot fail the job
    }
  }
}
