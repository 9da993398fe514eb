package dev.loadprof.perfdata.reader;

import java.nio.ByteBuffer;

/**
 * The sizes that records of a known layout must have (linux/perf_event.h, and perf's own records):
 * a record whose type or size was damaged (one flipped bit) would otherwise be read as another
 * record, or swallow the records after it, and change the figures without a word.
 */
final class RecordLayouts {
  private static final int COMM = 3;
  private static final int MMAP = 1;
  private static final int READ = 8;
  private static final int MMAP2 = 10;
  private static final int AUX = 11;
  private static final int ITRACE_START = 12;
  private static final int AUX_OUTPUT_HW_ID = 21;
  private static final int FINISHED_ROUND = 68;
  private static final int THREAD_MAP = 73;
  private static final int FINISHED_INIT = 82;
  /** perf_event_attr's inherit_stat: only such events make the kernel write READ records. */
  private static final long FLAG_INHERIT_STAT = 1L << 11;
  /**
   * Bytes after the header of the kernel's records with a fixed layout, by type; -1 for the
   * others: LOST, EXIT, THROTTLE, UNTHROTTLE, FORK, AUX, ITRACE_START, LOST_SAMPLES, SWITCH,
   * SWITCH_CPU_WIDE, BPF_EVENT, AUX_OUTPUT_HW_ID.
   */
  private static final int[] FIXED_BODY_BYTES = {-1, -1, 16, -1, 24, 24, 24, 24, -1, -1, -1,
      24, 8, 8, 0, 8, -1, -1, 16, -1, -1, 8};

  private RecordLayouts() {}

  /**
   * Why a kernel record (not a sample) of {@code type} cannot be {@code b.limit()} bytes long,
   * with a trailer of {@code trailerBytes}; null when it can (or its layout is not checked).
   */
  static String kernelProblem(int type, ByteBuffer b, int trailerBytes, boolean readRecords) {
    int size = b.limit();
    int expected;
    if (type == AUX || type == ITRACE_START || type == AUX_OUTPUT_HW_ID) {
      // only AUX-area events (Intel PT, ...) make them, and such files go to perf script
      return "an AUX-area record (type " + type + ") in a recording without AUX data";
    }
    if (type < FIXED_BODY_BYTES.length && FIXED_BODY_BYTES[type] >= 0) {
      expected = RecordStream.HEADER_BYTES + FIXED_BODY_BYTES[type] + trailerBytes;
    } else if (type == COMM || type == MMAP || type == MMAP2) {
      // a fixed part, then a NUL-terminated name padded to 8 bytes
      int nameAt = RecordStream.HEADER_BYTES + (type == COMM ? 8 : type == MMAP ? 32 : 64);
      int nameEnd = nameAt;
      while (nameEnd < size - trailerBytes && b.get(nameEnd) != 0) {
        nameEnd++;
      }
      expected = nameAt + (nameEnd - nameAt + 1 + 7) / 8 * 8 + trailerBytes;
    } else if (type == READ && !readRecords) {
      return "a READ record, which none of the recording's events makes (no inherit_stat)";
    } else {
      return null;
    }
    return size == expected ? null : "record of type " + type + " with " + size
        + " bytes, not the " + expected + " of its layout";
  }

  /** Why one of perf's own records cannot be this long; null when it can or is not checked. */
  static String perfProblem(int type, ByteBuffer b) {
    int size = b.limit();
    if ((type == FINISHED_ROUND || type == FINISHED_INIT) && size != RecordStream.HEADER_BYTES) {
      return "record of type " + type + " with " + size + " bytes, not 8";
    }
    if (type == THREAD_MAP && (size < 16 || b.getLong(8) != (size - 16) / 24
        || (size - 16) % 24 != 0)) {
      return "thread map of " + size + " bytes that does not hold its threads";
    }
    return null;
  }

  /** True when one of {@code attrs} makes the kernel write READ records. */
  static boolean makesReadRecords(java.util.List<EventAttr> attrs) {
    return attrs.stream().anyMatch(a -> (a.flags() & FLAG_INHERIT_STAT) != 0);
  }
}
