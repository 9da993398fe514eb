package dev.loadprof.cli.progress;

import java.text.DecimalFormat;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.DefaultProgressBarRenderer;
import me.tongfei.progressbar.ProgressBarStyle;
import me.tongfei.progressbar.ProgressState;

/**
 * The library's progress line, with its rate and estimate taken on the display's clock: the work
 * done since the stage's line began, over the time since then. So the whole line is a function
 * of the counts and of that clock, which a test can set; the library's own would read the
 * system's.
 */
final class ClockRenderer extends DefaultProgressBarRenderer {
  private final LongSupplier clock;
  private final long sinceNs;
  private final String unit;
  private final long unitSize;

  ClockRenderer(String unit, long unitSize, LongSupplier clock) {
    super(ProgressBarStyle.ASCII, unit, unitSize, true, new DecimalFormat("#.0"),
        ChronoUnit.SECONDS, true, state -> Optional.empty());
    this.clock = clock;
    this.sinceNs = clock.getAsLong();
    this.unit = unit;
    this.unitSize = unitSize;
  }

  /** Units of work per second since the line began; NaN before any time has passed. */
  private double perSecond(ProgressState state) {
    long ns = clock.getAsLong() - sinceNs;
    return ns <= 0 ? Double.NaN : (state.getCurrent() - state.getStart()) * 1e9 / ns / unitSize;
  }

  @Override
  protected String speed(ProgressState state) {
    double rate = perSecond(state);
    return (Double.isNaN(rate) ? "?" : new DecimalFormat("0.0").format(rate)) + unit + "/s";
  }

  @Override
  protected String etaString(ProgressState state) {
    double rate = perSecond(state);
    long left = state.getMax() - state.getCurrent();
    if (state.isIndefinite() || state.getMax() <= 0 || Double.isNaN(rate) || rate <= 0) {
      return "?";
    }
    long seconds = Math.round(left / (double) unitSize / rate);
    return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  }
}
