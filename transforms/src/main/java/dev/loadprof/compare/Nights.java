package dev.loadprof.compare;

import dev.loadprof.model.RunInfo;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The night of a run and the benchmark it belongs to. The night is a date in the run id:
 * loadprof record's YYYYMMDD-HHMMSS (the UTC time the recording started), else YYYY-MM-DD, else
 * YYYYMMDD, none of them inside a longer number; else the trace header's {@code # captured on}
 * date. The benchmark is the run's file name before the date (separators trimmed), so that
 * mixed-2026-11-01-a, mixed-2026-11-01-b and mixed-20261101-224530 are runs of benchmark mixed;
 * when the name starts with the date, it is what follows the date (and its time). The
 * directories that tell two traces of one file name apart in a job (a/prog, b/prog;
 * dev.loadprof.parse.RunIds) may hold the date, but are not part of the benchmark.
 */
public final class Nights {
  /** loadprof record's names: PROGRAM-YYYYMMDD-HHMMSS. */
  private static final Pattern RECORDED = Pattern.compile(
      "(?<!\\d)(\\d{4})(\\d{2})(\\d{2})[-_T](\\d{2})(\\d{2})(\\d{2})(?!\\d)");
  private static final Pattern DASHED = Pattern.compile("(?<!\\d)(\\d{4})-(\\d{2})-(\\d{2})(?!\\d)");
  private static final Pattern PLAIN = Pattern.compile("(?<!\\d)(\\d{4})(\\d{2})(\\d{2})(?!\\d)");
  private static final String SEPARATORS = "-_. ";

  private Nights() {}

  /** The date in a run id, or null. */
  public static LocalDate fromRunId(String runId) {
    Matcher m = dateIn(runId);
    return m == null ? null : date(m);
  }

  /**
   * The run's file name (the run id after its last '/') without its date; the whole name when
   * it has none.
   */
  public static String benchmarkOf(String runId) {
    String name = runId.substring(runId.lastIndexOf('/') + 1);
    Matcher m = dateIn(name);
    if (m == null) {
      return name.isEmpty() ? runId : name;
    }
    String before = trim(name.substring(0, m.start()));
    if (!before.isEmpty()) {
      return before;
    }
    String after = trim(name.substring(m.end()));
    return after.isEmpty() ? name : after;
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
    for (Pattern p : new Pattern[] {RECORDED, DASHED, PLAIN}) {
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
      LocalDate date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)));
      if (m.groupCount() == 6) { // and a time of day
        LocalTime.of(Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
            Integer.parseInt(m.group(6)));
      }
      return date;
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
