package dev.loadprof.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The night of a run and the benchmark it belongs to. The night is a date in the run id
 * (YYYY-MM-DD, else YYYYMMDD, not inside a longer number), else the trace header's
 * {@code # captured on} date. The benchmark is the run id before the date (separators trimmed),
 * so that mixed-2026-11-01-a and mixed-2026-11-01-b are two runs of benchmark mixed; when the id
 * starts with the date, it is what follows the date.
 */
public final class Nights {
  private static final Pattern DASHED = Pattern.compile("(?<!\\d)(\\d{4})-(\\d{2})-(\\d{2})(?!\\d)");
  private static final Pattern PLAIN = Pattern.compile("(?<!\\d)(\\d{4})(\\d{2})(\\d{2})(?!\\d)");
  private static final String SEPARATORS = "-_. ";
  private static final DateTimeFormatter CAPTURED =
      DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ENGLISH);

  private Nights() {}

  /** The date in a run id, or null. */
  public static LocalDate fromRunId(String runId) {
    Matcher m = dateIn(runId);
    return m == null ? null : date(m);
  }

  /** The run id without its date; the whole id when it has none. */
  public static String benchmarkOf(String runId) {
    Matcher m = dateIn(runId);
    if (m == null) {
      return runId;
    }
    String before = trim(runId.substring(0, m.start()));
    if (!before.isEmpty()) {
      return before;
    }
    String after = trim(runId.substring(m.end()));
    return after.isEmpty() ? runId : after;
  }

  /** The date of a perf header line "# captured on    : Sun Nov 22 20:33:38 2026", or null. */
  public static LocalDate capturedOn(String headerLine) {
    String t = headerLine.trim();
    if (!t.startsWith("#")) {
      return null;
    }
    t = t.substring(1).trim();
    if (!t.startsWith("captured on")) {
      return null;
    }
    int colon = t.indexOf(':');
    if (colon < 0) {
      return null;
    }
    String when = t.substring(colon + 1).trim().replaceAll("\\s+", " ");
    try {
      return LocalDate.parse(when, CAPTURED);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The captured-on date in the header of a (decompressed) perf script text, or null. */
  public static LocalDate capturedOn(InputStream trace) throws IOException {
    BufferedReader r = new BufferedReader(new InputStreamReader(trace, StandardCharsets.UTF_8));
    for (String line = r.readLine(); line != null && line.startsWith("#"); line = r.readLine()) {
      LocalDate d = capturedOn(line);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  private static Matcher dateIn(String runId) {
    for (Pattern p : new Pattern[] {DASHED, PLAIN}) {
      Matcher m = p.matcher(runId);
      while (m.find()) {
        if (date(m) != null) {
          return m;
        }
      }
    }
    return null;
  }

  private static LocalDate date(Matcher m) {
    try {
      return LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)));
    } catch (DateTimeException e) {
      return null;
    }
  }

  private static String trim(String s) {
    int a = 0;
    int b = s.length();
    while (a < b && SEPARATORS.indexOf(s.charAt(a)) >= 0) {
      a++;
    }
    while (b > a && SEPARATORS.indexOf(s.charAt(b - 1)) >= 0) {
      b--;
    }
    return s.substring(a, b);
  }
}
