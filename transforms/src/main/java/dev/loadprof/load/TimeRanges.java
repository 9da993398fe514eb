package dev.loadprof.load;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * perf's {@code --time} selection, in perf script's forms: absolute seconds on the trace clock
 * ({@code 1234.5,1236.0}, open ends {@code 1234.5,} and {@code ,1236.0}, several pairs
 * {@code a,b,c,d}), or percentages of the run's span ({@code 10%/2} = the second 10 % slice,
 * {@code 10%} = {@code 10%/1}, {@code 0%-10%}, and lists of these joined by commas). A time is
 * selected when it lies in any range, ends included, as in perf.
 */
public final class TimeRanges implements Serializable {
  private final String spec;
  private final boolean percent;
  /** Pairs: [from, to] in ns (absolute) or in percent of the span. */
  private final double[] percentBounds;
  private final long[] nsBounds;

  private TimeRanges(String spec, boolean percent, double[] percentBounds, long[] nsBounds) {
    this.spec = spec;
    this.percent = percent;
    this.percentBounds = percentBounds;
    this.nsBounds = nsBounds;
  }

  /** @throws IllegalArgumentException with a message saying which form is expected */
  public static TimeRanges parse(String text) {
    String s = text == null ? "" : text.strip();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty; expected START,END in seconds (an end may be"
          + " left open), or percentages such as 10%/2 or 0%-10%");
    }
    return s.contains("%") ? parsePercent(s) : parseAbsolute(s);
  }

  private static TimeRanges parseAbsolute(String s) {
    String[] parts = s.split(",", -1);
    if (parts.length % 2 != 0) {
      throw new IllegalArgumentException("'" + s + "': expected START,END pairs in seconds"
          + " (1234.5,1236.0; 1234.5, or ,1236.0 for an open end)");
    }
    long[] bounds = new long[parts.length];
    for (int i = 0; i < parts.length; i += 2) {
      bounds[i] = parts[i].isBlank() ? Long.MIN_VALUE : seconds(parts[i], s);
      bounds[i + 1] = parts[i + 1].isBlank() ? Long.MAX_VALUE : seconds(parts[i + 1], s);
      if (bounds[i] > bounds[i + 1]) {
        throw new IllegalArgumentException("'" + s + "': START " + parts[i].strip()
            + " is after END " + parts[i + 1].strip());
      }
    }
    return new TimeRanges(s, false, null, bounds);
  }

  private static long seconds(String value, String whole) {
    try {
      BigDecimal sec = new BigDecimal(value.strip());
      if (sec.signum() < 0) {
        throw new NumberFormatException();
      }
      return sec.movePointRight(9).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("'" + whole + "': '" + value.strip()
          + "' is not a time in seconds (such as 1234.567891)");
    }
  }

  private static TimeRanges parsePercent(String s) {
    List<Double> bounds = new ArrayList<>();
    for (String part : s.split(",", -1)) {
      String p = part.strip();
      int slash = p.indexOf('/');
      int dash = p.indexOf('-');
      if (dash > 0) { // a%-b%
        double from = percentOf(p.substring(0, dash), s);
        double to = percentOf(p.substring(dash + 1), s);
        if (from >= to) {
          throw new IllegalArgumentException("'" + s + "': in " + p + " the first percentage"
              + " must be below the second");
        }
        bounds.add(from);
        bounds.add(to);
      } else { // a%/n or a%
        double size = percentOf(slash < 0 ? p : p.substring(0, slash), s);
        int index = slash < 0 ? 1 : sliceIndex(p.substring(slash + 1), s);
        if (size <= 0 || size * index > 100 + 1e-9) {
          throw new IllegalArgumentException("'" + s + "': slice " + p + " lies beyond 100%");
        }
        bounds.add(size * (index - 1));
        bounds.add(size * index);
      }
    }
    double[] b = new double[bounds.size()];
    for (int i = 0; i < b.length; i++) {
      b[i] = bounds.get(i);
    }
    return new TimeRanges(s, true, b, null);
  }

  private static double percentOf(String value, String whole) {
    String v = value.strip();
    if (!v.endsWith("%")) {
      throw new IllegalArgumentException("'" + whole + "': '" + v + "' should be a percentage"
          + " such as 10%");
    }
    try {
      double d = Double.parseDouble(v.substring(0, v.length() - 1));
      if (!(d >= 0 && d <= 100)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + whole + "': '" + v + "' is not a percentage"
          + " from 0% to 100%");
    }
  }

  private static int sliceIndex(String value, String whole) {
    try {
      int n = Integer.parseInt(value.strip());
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + whole + "': '" + value.strip()
          + "' is not a slice number (1 for the first slice)");
    }
  }

  /** The ranges as ns pairs on the trace clock, for a run from startNs to endNs. */
  public long[] resolve(long startNs, long endNs) {
    if (!percent) {
      return nsBounds.clone();
    }
    long[] out = new long[percentBounds.length];
    double span = Math.max(0, endNs - startNs);
    for (int i = 0; i < out.length; i++) {
      out[i] = startNs + Math.round(span * percentBounds[i] / 100.0);
    }
    return out;
  }

  /** True for percentages, which need the run's span. */
  public boolean isPercent() {
    return percent;
  }

  /** The ranges as given. */
  @Override
  public String toString() {
    return spec;
  }

  /** True when t lies in one of the resolved pairs, ends included. */
  public static boolean contains(long[] resolved, long t) {
    for (int i = 0; i < resolved.length; i += 2) {
      if (t >= resolved[i] && t <= resolved[i + 1]) {
        return true;
      }
    }
    return false;
  }
}
