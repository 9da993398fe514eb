package dev.loadprof.compare;

import java.util.Locale;

/**
 * The smallest changes worth an alarm, whatever the statistics say: a relative change of the
 * median, and an absolute change in ns for time figures. For loads and serial fractions the
 * absolute rule asks instead that the entity's real time reach minAbsoluteNs on one side, so
 * tiny functions never raise alarms.
 *
 * @param minRelative e.g. 0.05 for 5%
 */
public record Thresholds(double minRelative, long minAbsoluteNs)
    implements java.io.Serializable {
  /** 5% and 10 ms: below either, a change is not reported. */
  public static final Thresholds DEFAULT = new Thresholds(0.05, 10_000_000L);

  public Thresholds {
    if (!(minRelative >= 0) || minAbsoluteNs < 0) {
      throw new IllegalArgumentException("thresholds must not be negative");
    }
  }

  /**
   * Reads "5%", "10ms" or both, comma-separated ("5%,10ms"); a part left out keeps its default.
   * Durations take ns, us, ms or s. Throws IllegalArgumentException with a usable message.
   */
  public static Thresholds parse(String text) {
    double rel = DEFAULT.minRelative;
    long abs = DEFAULT.minAbsoluteNs;
    for (String part : text.split(",")) {
      String t = part.trim().toLowerCase(Locale.ROOT);
      try {
        if (t.endsWith("%")) {
          rel = Double.parseDouble(t.substring(0, t.length() - 1)) / 100;
        } else {
          abs = parseDuration(t);
        }
      } catch (NumberFormatException e) {
        throw bad(text);
      }
      if (!(rel >= 0) || abs < 0) {
        throw bad(text);
      }
    }
    return new Thresholds(rel, abs);
  }

  private static long parseDuration(String t) {
    String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
    for (String[] u : units) {
      if (t.endsWith(u[0])) {
        double v = Double.parseDouble(t.substring(0, t.length() - u[0].length()));
        return Math.round(v * Long.parseLong(u[1]));
      }
    }
    throw new NumberFormatException(t);
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException("bad threshold \"" + text + "\": expected a relative"
        + " change, an absolute real-time change or both, e.g. 5%,10ms");
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s%%,%dns", minRelative * 100, minAbsoluteNs);
  }
}
