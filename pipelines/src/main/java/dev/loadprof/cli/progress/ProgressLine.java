package dev.loadprof.cli.progress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of one progress line, made to fit the terminal's width as cargo and pip do: the
 * stage and its percentage always, then what fits of the estimate, the work read, the rate, the
 * time elapsed and the bar, in that order of importance; the bar shrinks before it goes. A line
 * narrower than the terminal never wraps, so "\r" redraws it in place.
 *
 * <pre>reading  42% [======>         ] 1.3 GB read, 210.5 MB/s, elapsed 0:04, left 0:05</pre>
 */
final class ProgressLine {
  static final String BYTES = "bytes";
  private static final int MIN_BAR = 10;
  private static final int MAX_BAR = 30;

  private ProgressLine() {}

  /**
   * The line of {@code view}, {@code stageNs} after its stage's line began at {@code start}
   * (rate and estimate are of the work since then) and {@code jobNs} after the job began, in at
   * most {@code width} - 1 columns (the last column stays free: a terminal that wraps there
   * would start a new line).
   */
  static String render(ProgressView view, ProgressView start, long stageNs, long jobNs,
      int width) {
    int room = Math.max(1, width - 1);
    boolean known = view.total() > 0;
    double fraction = known ? Math.min(1.0, (double) view.done() / view.total()) : 0;
    String head = view.label() + (known ? String.format(Locale.ROOT, " %3d%%",
        (int) Math.floor(fraction * 100)) : "");
    double perSecond = stageNs <= 0 ? Double.NaN
        : (view.shown() - start.shown()) * 1e9 / stageNs;
    // In order of importance: each is dropped before the ones above it.
    List<String> fields = new ArrayList<>();
    fields.add(known ? "left " + left(view, view.done() - start.done(), stageNs) : null);
    fields.add(amount(view));
    boolean slow = !view.unit().equals(BYTES) && perSecond < 0.1; // "0.0 outputs/s" says nothing
    fields.add(Double.isNaN(perSecond) || slow ? null : rate(perSecond, view));
    fields.add("elapsed " + clock(jobNs / 1_000_000_000L));
    for (int kept = fields.size(); kept >= 0; kept--) {
      String tail = order(fields, kept);
      // The bar takes what is left, between its least and most width, or is left out.
      int free = room - head.length() - (tail.isEmpty() ? 0 : tail.length() + 1) - 3;
      if (known && free >= MIN_BAR) {
        return head + " " + bar(fraction, Math.min(MAX_BAR, free)) + (tail.isEmpty() ? ""
            : " " + tail);
      }
      String line = tail.isEmpty() ? head : head + " " + tail;
      if (line.length() <= room) {
        return line;
      }
    }
    return head.length() <= room ? head : head.substring(0, room);
  }

  /** The first {@code kept} fields with the estimate last, where a reader looks for it. */
  private static String order(List<String> fields, int kept) {
    List<String> shown = new ArrayList<>();
    for (int i = 1; i < kept; i++) {
      if (fields.get(i) != null) {
        shown.add(fields.get(i));
      }
    }
    if (kept > 0 && fields.get(0) != null) {
      shown.add(fields.get(0));
    }
    return String.join(", ", shown);
  }

  private static String bar(double fraction, int width) {
    int inner = width - 2;
    int full = (int) Math.round(fraction * inner);
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < inner; i++) {
      b.append(i < full - 1 || full == inner ? '=' : i == full - 1 ? '>' : ' ');
    }
    return b.append(']').toString();
  }

  /** Work shown so far: "1.3 GB read", or "4/10 blocks" where the total is of the same work. */
  private static String amount(ProgressView view) {
    if (view.unit().equals(BYTES)) {
      return bytes(view.shown()) + " read";
    }
    long shown = view.shown() / view.unitSize();
    return view.total() > 0 && view.shown() == view.done()
        ? shown + "/" + view.total() / view.unitSize() + " " + view.unit()
        : shown + " " + view.unit();
  }

  private static String rate(double perSecond, ProgressView view) {
    if (view.unit().equals(BYTES)) {
      return bytes(perSecond) + "/s";
    }
    return String.format(Locale.ROOT, "%.1f %s/s", perSecond / view.unitSize(), view.unit());
  }

  /** The time left at the stage's pace so far: none once all is done, "?" before any work. */
  private static String left(ProgressView view, long doneInStage, long stageNs) {
    if (view.done() >= view.total()) {
      return clock(0);
    }
    if (doneInStage <= 0 || stageNs <= 0) {
      return "?";
    }
    double seconds = (view.total() - view.done()) * (stageNs / 1e9) / doneInStage;
    return clock(Math.round(seconds));
  }

  /** Bytes with a leading digit always: 0.6 MB, 512.0 KB, 1.3 GB. */
  static String bytes(double n) {
    String[] units = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (n >= 1000 && u < units.length - 1) {
      n /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", n, units[u]);
  }

  /** m:ss, or h:mm:ss from an hour up. */
  static String clock(long seconds) {
    return seconds >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60,
            seconds % 60)
        : String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
  }
}
