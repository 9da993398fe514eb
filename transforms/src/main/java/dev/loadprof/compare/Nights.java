package dev.loadprof.compare;

import dev.loadprof.model.RunInfo;
import java.time.DateTimeException;
import java.time.LocalDate;
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

  /**
   * The night of a run: as dev.loadprof.archive.NightRule decided it when the run entered the
   * job (RunInfo.night). A run built without a job has none; then the date in its run id, else
   * the date the trace header says it was captured on; null when neither.
   */
  public static LocalDate of(RunInfo run) {
    if (run.night != null && !run.night.isEmpty()) {
      return LocalDate.parse(run.night);
    }
    LocalDate night = fromRunId(run.runId);
    if (night == null && run.capturedOn != null && !run.capturedOn.isEmpty()) {
      night = LocalDate.parse(run.capturedOn);
    }
    return night;
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
