package dev.loadprof.cli.progress;

import dev.loadprof.progress.JobProgress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * The progress line of a running job on stderr: the stage, work done of the total where known,
 * a rate and an estimate, redrawn in place twice a second from a source of {@link ProgressView}s:
 * {@link JobProgress} for a job in this JVM, the cluster's REST API for a job on a Flink cluster
 * ({@link FlinkClusterProgress}). Nothing is
 * drawn in a job's first 2 s, so short jobs print exactly what they did before. Each finished
 * stage keeps its last line. Drawing is me.tongfei:progressbar's, fed through a consumer that
 * writes to the job's own stderr stream (no terminal library is opened), and driven by this
 * display's own ticks (the library's timer is left idle): what is drawn when depends only on the
 * ticks and the clock, which tests give by hand. A log line written to System.err meanwhile
 * starts on a line of its own, and the next redraw puts the progress under it.
 */
public final class ProgressDisplay implements AutoCloseable {
  static final long SHOW_AFTER_MS = 2_000;
  static final int REDRAW_MS = 500;
  private static final int WIDTH = 100;

  private final PrintStream err;
  private final boolean terminal;
  private final PrintStream systemErr = System.err;
  private final ScheduledExecutorService ticker;
  private final LongSupplier clock;
  private final long startNs;
  private final Supplier<ProgressView> source;
  private final boolean enabled;
  private final AutoCloseable sourceStop;
  private String shown;
  private ProgressBar bar;
  private boolean lineDrawn;
  /** After close: a tick that was already on its way draws nothing more. */
  private boolean closed;

  private ProgressDisplay(PrintStream err, boolean enabled, boolean terminal,
      Supplier<ProgressView> source, AutoCloseable sourceStop, LongSupplier clock,
      boolean ticking) {
    this.err = err;
    this.clock = clock;
    this.startNs = clock.getAsLong();
    this.source = source;
    this.sourceStop = sourceStop;
    this.terminal = terminal;
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
      Supplier<ProgressView> source, AutoCloseable sourceStop) {
    return start(enabled, terminal, err, source, sourceStop, System::nanoTime, true);
  }

  /**
   * As above, on {@code clock} (ns); with {@code ticking} false no thread ticks: the caller calls
   * {@link #tick} (tests, on a clock of their own).
   */
  static ProgressDisplay start(boolean enabled, boolean terminal, PrintStream err,
      Supplier<ProgressView> source, AutoCloseable sourceStop, LongSupplier clock,
      boolean ticking) {
    JobProgress.reset();
    JobProgress.shownOnConsole(); // even when not drawn: in a pipe or with --quiet, stay quiet
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
      if (closed || !enabled || clock.getAsLong() - startNs < SHOW_AFTER_MS * 1_000_000L) {
        return;
      }
      ProgressView now = source.get();
      if (now == null) {
        return;
      }
      if (!now.label().equals(shown)) {
        finishLine();
        shown = now.label();
        bar = newBar(now);
      }
      bar.maxHint(now.total());
      bar.stepTo(now.done());
      bar.refresh();
    } catch (RuntimeException e) {
      // The progress line is a courtesy; it must never disturb the job.
    }
  }

  private ProgressBar newBar(ProgressView at) {
    return new ProgressBarBuilder()
        .setTaskName(at.label())
        .setInitialMax(at.total())
        .setRenderer(new ClockRenderer(" " + at.unit(), at.unitSize(), clock))
        .continuousUpdate() // each refresh draws, also when only the rate and estimate moved
        .setUpdateIntervalMillis(Integer.MAX_VALUE) // redrawn by tick(), not the library's timer
        .startsFrom(at.done(), Duration.ZERO)
        .setConsumer(new DelegatingProgressBarConsumer(this::draw, WIDTH))
        .build();
  }

  private void draw(String line) {
    synchronized (err) {
      err.print('\r' + line);
      err.flush();
      lineDrawn = true;
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

  /** Draws the finished stage's last state and leaves it on its own line. */
  private void finishLine() {
    if (bar != null) {
      bar.close();
      synchronized (err) {
        if (lineDrawn) {
          err.println();
          lineDrawn = false;
        }
      }
      bar = null;
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
      ProgressView last = lastView();
      if (bar != null && last != null && last.label().equals(shown)) {
        bar.stepTo(last.done()); // the last line shows where the job ended
      }
      finishLine();
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
