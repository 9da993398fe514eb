package dev.loadprof.block;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.Locale;

/**
 * The rule for a perf.data file whose data section could not all be read (the counters the
 * native reader put in the health): the run cannot be analyzed when the unread part could
 * change a figure, that is when it is more than {@value #MAX_UNREAD_PER_MILLE} per mille of the
 * data section, or when records were read after it (it lies inside the recording, so inside the
 * span of every process running then). Otherwise (a small unread tail, as when perf was stopped
 * while writing) the run is analyzed, with a warning naming the unread share.
 */
final class PerfDataDamage {
  static final int MAX_UNREAD_PER_MILLE = 1;

  private PerfDataDamage() {}

  /** Why the unread part makes the run unusable, or "" (also when all was read). */
  static String reasonOf(RunInfo info) {
    long unread = info.health.get(TraceHealth.PERF_DATA_UNREAD_BYTES);
    long records = info.health.get(TraceHealth.PERF_DATA_UNREAD_RECORDS);
    if (records == 0) {
      return "";
    }
    long total = info.health.get(TraceHealth.PERF_DATA_BYTES);
    long after = info.health.get(TraceHealth.PERF_DATA_RECORDS_AFTER_DAMAGE);
    // a stream has no known size: any unread part is large
    boolean large = total <= 0 || unread > total / 1000 * MAX_UNREAD_PER_MILLE;
    if (!large && after == 0) {
      return "";
    }
    return info.source + ": the perf.data file is damaged at byte "
        + info.health.get(TraceHealth.PERF_DATA_FIRST_UNREAD_BYTE) + ": " + unread
        + " bytes (" + share(unread, total) + " of its data section, " + records
        + " damaged records) could not be read"
        + (after > 0 ? ", with " + after + " records read after them" : "")
        + ", so its figures could be wrong (loadprof analyzes a file only when at most 0.1 % of"
        + " its data, at its end, is unread). Record it again, or copy it again if it was copied";
  }

  /** The warning for an unread part that the rule lets through, or "" when there is none. */
  static String warningOf(RunInfo info) {
    long records = info.health.get(TraceHealth.PERF_DATA_UNREAD_RECORDS);
    if (records == 0 || !reasonOf(info).isEmpty()) {
      return "";
    }
    long unread = info.health.get(TraceHealth.PERF_DATA_UNREAD_BYTES);
    return info.source + ": the last " + unread + " bytes of the perf.data file's data section ("
        + share(unread, info.health.get(TraceHealth.PERF_DATA_BYTES)) + ", from byte "
        + info.health.get(TraceHealth.PERF_DATA_FIRST_UNREAD_BYTE) + ") could not be read"
        + " (a damaged or cut record); the figures leave them out";
  }

  private static String share(long part, long total) {
    return String.format(Locale.ROOT, "%.3f %%", total <= 0 ? 100.0 : 100.0 * part / total);
  }
}
