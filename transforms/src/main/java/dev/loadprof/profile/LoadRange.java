package dev.loadprof.profile;

import java.io.Serializable;

/**
 * An inclusive filter on load, [min, max]. Written as "A:B", "A" (exactly A), "A:" (A or more),
 * ":B" (at most B) or "all". The same syntax as pprof's numeric -tagfocus ranges, so that a filter
 * given to loadprof can be repeated as {@code -tagfocus=load=A:B} on the written profile.
 */
public final class LoadRange implements Serializable {
  private static final int OPEN_MIN = 0;
  private static final int OPEN_MAX = Integer.MAX_VALUE;

  /** Every load. */
  public static final LoadRange ALL = new LoadRange(OPEN_MIN, OPEN_MAX);

  private final int min;
  private final int max;

  private LoadRange(int min, int max) {
    this.min = min;
    this.max = max;
  }

  /** The inclusive range [min, max]; max may be Integer.MAX_VALUE for "no upper bound". */
  public static LoadRange of(int min, int max) {
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("bad load range [" + min + ", " + max + "]");
    }
    return min == OPEN_MIN && max == OPEN_MAX ? ALL : new LoadRange(min, max);
  }

  /** Parses "A:B", "A", "A:", ":B", ":" or "all"; throws IllegalArgumentException otherwise. */
  public static LoadRange parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("load filter is missing");
    }
    String t = text.trim();
    if (t.equalsIgnoreCase("all") || t.equals(":")) {
      return ALL;
    }
    int colon = t.indexOf(':');
    if (colon < 0) {
      int exact = parseBound(t, text);
      return of(exact, exact);
    }
    String lo = t.substring(0, colon);
    String hi = t.substring(colon + 1);
    int min = lo.isEmpty() ? OPEN_MIN : parseBound(lo, text);
    int max = hi.isEmpty() ? OPEN_MAX : parseBound(hi, text);
    if (max < min) {
      throw new IllegalArgumentException(
          "bad load filter \"" + text + "\": the lower bound " + min + " exceeds the upper "
              + max);
    }
    return of(min, max);
  }

  private static int parseBound(String bound, String whole) {
    try {
      int v = Integer.parseInt(bound);
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "bad load filter \"" + whole + "\": expected A:B, A, A: or :B with non-negative"
              + " integers A and B (e.g. 1, 2:8, 4:), got \"" + bound + "\"");
    }
  }

  public boolean contains(int load) {
    return load >= min && load <= max;
  }

  public int min() {
    return min;
  }

  /** Integer.MAX_VALUE when unbounded. */
  public int max() {
    return max;
  }

  public boolean isAll() {
    return min == OPEN_MIN && max == OPEN_MAX;
  }

  /** The text form that {@link #parse} reads back to an equal range. */
  @Override
  public String toString() {
    if (isAll()) {
      return "all";
    }
    if (min == max) {
      return Integer.toString(min);
    }
    String lo = min == OPEN_MIN ? "" : Integer.toString(min);
    String hi = max == OPEN_MAX ? "" : Integer.toString(max);
    return lo + ":" + hi;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LoadRange r && r.min == min && r.max == max;
  }

  @Override
  public int hashCode() {
    return min * 31 + max;
  }
}
