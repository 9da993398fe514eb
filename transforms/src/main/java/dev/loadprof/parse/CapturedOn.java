package dev.loadprof.parse;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** The date of perf's header line {@code # captured on    : Sun Nov 22 20:33:38 2026}. */
public final class CapturedOn {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ENGLISH);

  private CapturedOn() {}

  /** The date of the text after the colon, e.g. "Sun Nov 22 20:33:38 2026"; null if not one. */
  public static LocalDate parse(String when) {
    try {
      return LocalDate.parse(when.trim().replaceAll("\\s+", " "), FORMAT);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
