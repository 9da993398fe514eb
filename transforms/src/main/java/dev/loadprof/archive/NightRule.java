package dev.loadprof.archive;

import dev.loadprof.compare.Nights;
import dev.loadprof.model.RunInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * The one rule for a run's night (a UTC date), used wherever runs enter a job: when traces are
 * parsed (analyze, compare, nightly), when archive files a run under its night partition, and
 * when an archived run is read back (the night it was filed under). In order:
 *
 * <ol>
 *   <li>{@code loadprof archive --night}, when given;
 *   <li>else the date in the run id (loadprof record's NAME-YYYYMMDD-HHMMSS, else YYYY-MM-DD,
 *       else YYYYMMDD; {@link Nights#fromRunId});
 *   <li>else the recording's own capture date: the {@code # captured on} line of {@code perf
 *       script --header}, or the CLOCK_DATA feature of a perf.data header (perf record -k);
 *   <li>else the UTC date the trace file was last modified.
 * </ol>
 *
 * <p>A night is in doubt when it is more than a day after today (UTC) or more than a day after
 * the recording's capture date: a run cannot be of a night that had not come when it was
 * recorded, so its name (or --night) is wrong, or a clock is. Such a run is warned about, one
 * line naming it, and nightly never takes it for the latest night. A night before the capture
 * date is accepted: re-processing or back-filling old nights does that, and it cannot pass a
 * later run off as the latest.
 */
public final class NightRule {
  /** How far a night may lie after the capture date, or after today: time zones, midnight. */
  public static final int TOLERANCE_DAYS = 1;

  private NightRule() {}

  /** Where a night came from. */
  public enum Source {
    EXPLICIT("--night"),
    RUN_ID("the date in the run id"),
    CAPTURED("the recording's capture date"),
    FILE_DATE("the trace file's modification date");

    public final String description;

    Source(String description) {
      this.description = description;
    }
  }

  /**
   * A run's night, where it came from, and why it is in doubt ("" when it is not).
   */
  public record Night(LocalDate date, Source source, String doubt) {
    public boolean trusted() {
      return doubt.isEmpty();
    }
  }

  /**
   * @param explicit --night (checked), or null
   * @param capturedOn the recording's capture date (ISO), or "" / null when it does not say
   * @param fileModifiedMillis when the trace file was last modified; 0 or less when not known
   * @param today the UTC date now
   * @return the night, or null when nothing gives one
   */
  public static Night of(String explicit, String runId, String capturedOn,
      long fileModifiedMillis, LocalDate today) {
    LocalDate date;
    Source source;
    if (explicit != null && !explicit.isEmpty()) {
      date = LocalDate.parse(explicit);
      source = Source.EXPLICIT;
    } else if ((date = Nights.fromRunId(runId)) != null) {
      source = Source.RUN_ID;
    } else if ((date = parse(capturedOn)) != null) {
      source = Source.CAPTURED;
    } else if (fileModifiedMillis > 0) {
      date = fileDate(fileModifiedMillis);
      source = Source.FILE_DATE;
    } else {
      return null;
    }
    return new Night(date, source, doubt(runId, date, source, capturedOn, today));
  }

  /** A night already decided (an archived run's partition), checked again against today. */
  public static Night filed(String night, String runId, String capturedOn, LocalDate today) {
    LocalDate date = parse(night);
    return date == null ? null
        : new Night(date, Source.EXPLICIT, doubt(runId, date, null, capturedOn, today));
  }

  /** Sets the run's night and its doubt from the rule (no --night: it is not archive). */
  public static void decide(RunInfo run, long fileModifiedMillis, LocalDate today) {
    set(run, of(null, run.runId, run.capturedOn, fileModifiedMillis, today));
  }

  /** Sets an archived run's night: the one it was filed under, checked again. */
  public static void decideFiled(RunInfo run, String filedNight, LocalDate today) {
    Night n = filed(filedNight, run.runId, run.capturedOn, today);
    if (n == null) { // an archive of format 1 kept no night: the rule without a file date
      n = of(null, run.runId, run.capturedOn, 0, today);
    }
    set(run, n);
  }

  private static void set(RunInfo run, Night n) {
    run.night = n == null ? "" : n.date().toString();
    run.nightDoubt = n == null ? "" : n.doubt();
  }

  /** One line naming the run when its night is in doubt; "" when it is not. */
  static String doubt(String runId, LocalDate night, Source source, String capturedOn,
      LocalDate today) {
    String from = source == null ? "" : " (from " + source.description + ")";
    if (ChronoUnit.DAYS.between(today, night) > TOLERANCE_DAYS) {
      return "run " + runId + ": its night " + night + from + " is in the future (today is "
          + today + "); it is not taken for the latest night. Rename the trace or give"
          + " loadprof archive --night";
    }
    LocalDate captured = parse(capturedOn);
    if (captured != null && ChronoUnit.DAYS.between(captured, night) > TOLERANCE_DAYS) {
      return "run " + runId + ": its night " + night + from + " is after the recording's"
          + " capture date " + captured + "; it is not taken for the latest night. Rename the"
          + " trace or give loadprof archive --night";
    }
    return "";
  }

  /** The UTC date of a file's modification time. */
  public static LocalDate fileDate(long modifiedMillis) {
    return Instant.ofEpochMilli(modifiedMillis).atZone(ZoneOffset.UTC).toLocalDate();
  }

  /** Today's UTC date. */
  public static LocalDate today() {
    return LocalDate.now(ZoneOffset.UTC);
  }

  private static LocalDate parse(String iso) {
    if (iso == null || iso.isEmpty()) {
      return null;
    }
    try {
      return LocalDate.parse(iso);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
