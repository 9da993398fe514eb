package dev.loadprof.perfdata.reader;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;

/**
 * What of a perf.data file's data section could not be read: its damaged stretches (a record
 * whose header or fields do not hold, up to where well-formed records follow again), in bytes
 * and records, where the first one starts, and how many records were read after it. The run's
 * health gets these counters; whether the run can still be analyzed is
 * {@code UnusablePolicy}'s rule on them, so a run read back from an archive is judged the same.
 */
final class UnreadData {
  private long dataBytes;
  private long bytes;
  private long records;
  private long firstAt = -1;
  private String firstReason = "";
  private long recordsAfter;

  UnreadData(long dataBytes) {
    this.dataBytes = dataBytes;
  }

  /** Bytes {@code [from, to)} could not be read, as one damaged record, because of {@code why}. */
  void damaged(long from, long to, String why) {
    if (firstAt < 0) {
      firstAt = from;
      firstReason = why;
    }
    bytes += Math.max(0, to - from);
    records++;
  }

  /** A record read well; counted when it comes after damage. */
  void read() {
    if (firstAt >= 0) {
      recordsAfter++;
    }
  }

  /** The data's size, once known at its end (a stream's). */
  void dataBytes(long n) {
    dataBytes = n;
  }

  boolean any() {
    return records > 0;
  }

  long bytes() {
    return bytes;
  }

  long records() {
    return records;
  }

  /** Byte offset of the first damaged record, -1 when none. */
  long firstAt() {
    return firstAt;
  }

  /** What was wrong with the first damaged record. */
  String firstReason() {
    return firstReason;
  }

  /** Puts the measure into the run's health (only when something could not be read). */
  void describe(RunInfo run) {
    if (!any()) {
      return;
    }
    run.health.add(TraceHealth.PERF_DATA_BYTES, dataBytes);
    run.health.add(TraceHealth.PERF_DATA_UNREAD_BYTES, bytes);
    run.health.add(TraceHealth.PERF_DATA_UNREAD_RECORDS, records);
    run.health.add(TraceHealth.PERF_DATA_FIRST_UNREAD_BYTE, firstAt);
    run.health.add(TraceHealth.PERF_DATA_RECORDS_AFTER_DAMAGE, recordsAfter);
  }
}
