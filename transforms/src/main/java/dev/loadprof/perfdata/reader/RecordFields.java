package dev.loadprof.perfdata.reader;

import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_ADDR;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_CALLCHAIN;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_CPU;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_ID;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_IDENTIFIER;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_IP;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_PERIOD;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_RAW;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_READ;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_STREAM_ID;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_TID;
import static dev.loadprof.perfdata.reader.EventAttr.SAMPLE_TIME;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * Reads the sample fields of a record: all of a SAMPLE's (in the order of its attr's
 * sample_type, as the kernel writes them), or the sample_id trailer of another record. Which
 * event a record belongs to comes from its id, found where perf looks for it. The result is left
 * in the fields; one instance per reader.
 */
final class RecordFields {
  static final int SAMPLE = 9;
  /** Kernel record types are below this; perf's own (FINISHED_ROUND, ...) from it on. */
  static final int USER_TYPE_START = 64;

  /** The sample_type bits whose fields {@link #sample} reads (or steps over). */
  private static final long DECODED_SAMPLE_BITS = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID
      | SAMPLE_TIME | SAMPLE_ADDR | SAMPLE_ID | SAMPLE_STREAM_ID | SAMPLE_CPU | SAMPLE_PERIOD
      | SAMPLE_READ | SAMPLE_CALLCHAIN | SAMPLE_RAW;
  private final Map<Long, EventAttr> attrById;
  private final EventAttr first;
  private final boolean single;
  private final boolean readRecords;

  EventAttr attr;
  long time;
  int pid;
  int tid;
  int cpu;
  long period;
  long ip;
  /** Byte offset of the callchain's first entry, and its number of entries (0: none). */
  int callchainAt;
  int callchainLength;
  /** Byte offset and size of the raw tracepoint data (size 0: none). */
  int rawAt;
  int rawSize;
  /** Why the record could not be read, or null. */
  String failure;

  RecordFields(List<EventAttr> attrs, Map<Long, EventAttr> attrById) {
    this.attrById = attrById;
    this.first = attrs.get(0);
    this.single = attrs.size() == 1;
    this.readRecords = RecordLayouts.makesReadRecords(attrs);
  }

  /** Reads a SAMPLE record; false (with {@link #failure}) when it is not readable. */
  boolean sample(ByteBuffer b) {
    failure = null;
    int end = b.limit();
    long id = single ? 0 : sampleId(b);
    attr = id == 0 ? first : attrById.get(id);
    if (attr == null) {
      failure = "sample of an unknown event id";
      return false;
    }
    try {
      int p = RecordStream.HEADER_BYTES;
      if (attr.has(SAMPLE_IDENTIFIER)) {
        p += 8;
      }
      ip = 0;
      if (attr.has(SAMPLE_IP)) {
        ip = b.getLong(p);
        p += 8;
      }
      pid = -1;
      tid = -1;
      if (attr.has(SAMPLE_TID)) {
        pid = b.getInt(p);
        tid = b.getInt(p + 4);
        p += 8;
      }
      time = 0;
      if (attr.has(SAMPLE_TIME)) {
        time = b.getLong(p);
        p += 8;
      }
      p += attr.has(SAMPLE_ADDR) ? 8 : 0;
      p += attr.has(SAMPLE_ID) ? 8 : 0;
      p += attr.has(SAMPLE_STREAM_ID) ? 8 : 0;
      cpu = -1;
      if (attr.has(SAMPLE_CPU)) {
        cpu = b.getInt(p);
        p += 8;
      }
      period = attr.defaultPeriod();
      if (attr.has(SAMPLE_PERIOD)) {
        period = b.getLong(p);
        p += 8;
      }
      if (attr.has(SAMPLE_READ)) {
        long group = (attr.readFormat() & EventAttr.READ_GROUP) != 0 ? b.getLong(p) : 1;
        if (group < 0 || group > (end - p) / 8) {
          failure = "read values longer than their record";
          return false;
        }
        p += attr.readBytes(group);
      }
      callchainLength = 0;
      if (attr.has(SAMPLE_CALLCHAIN)) {
        long n = b.getLong(p);
        p += 8;
        if (n < 0 || n > (end - p) / 8) { // no p + n * 8: it can overflow
          failure = "callchain longer than its record";
          return false;
        }
        callchainAt = p;
        callchainLength = (int) n;
        p += (int) n * 8;
      }
      rawSize = 0;
      if (attr.has(SAMPLE_RAW)) {
        rawSize = b.getInt(p);
        rawAt = p + 4;
        if (rawSize < 0 || rawSize > end - rawAt) {
          failure = "raw data longer than its record";
          return false;
        }
        p = rawAt + rawSize; // the kernel pads the raw data to keep the record aligned
      }
      if ((attr.sampleType() & ~DECODED_SAMPLE_BITS) == 0 && p != end) {
        // every field is known, so they end where the record does; a size that is wrong
        // (holding the next record) does not
        failure = "sample of " + end + " bytes whose fields take " + p;
        return false;
      }
      return true;
    } catch (IndexOutOfBoundsException e) {
      failure = "sample shorter than its fields";
      return false;
    }
  }

  /**
   * Reads the sample_id trailer of a non-sample record: pid, tid, time, cpu (-1 / 0 when absent).
   * False when the record has no trailer or it is not readable.
   */
  boolean trailer(ByteBuffer b) {
    failure = null;
    int end = b.limit();
    EventAttr a = first;
    if (!single && first.has(SAMPLE_IDENTIFIER)) {
      long id = b.getLong(end - 8);
      a = id == 0 ? first : attrById.get(id); // perf takes id 0 (synthesized records) as the first
    }
    pid = -1;
    tid = -1;
    time = 0;
    cpu = -1;
    attr = a;
    if (a == null) {
      failure = "record of an unknown event id"; // perf cannot parse it either
      return false;
    }
    if (!a.sampleIdAll()) {
      return false;
    }
    int p = end - a.idTrailerBytes();
    if (p < RecordStream.HEADER_BYTES) {
      failure = "record shorter than its sample id";
      return false;
    }
    if (a.has(SAMPLE_TID)) {
      pid = b.getInt(p);
      tid = b.getInt(p + 4);
      p += 8;
    }
    if (a.has(SAMPLE_TIME)) {
      time = b.getLong(p);
      p += 8;
    }
    p += a.has(SAMPLE_ID) ? 8 : 0;
    p += a.has(SAMPLE_STREAM_ID) ? 8 : 0;
    if (a.has(SAMPLE_CPU)) {
      cpu = b.getInt(p);
    }
    return true;
  }

  /** The event id of a sample: first when IDENTIFIER is set, else after IP, TID, TIME, ADDR. */
  private long sampleId(ByteBuffer b) {
    int p = RecordStream.HEADER_BYTES;
    if (first.has(SAMPLE_IDENTIFIER)) {
      return b.getLong(p);
    }
    if (!first.has(SAMPLE_ID)) {
      return Long.MIN_VALUE;
    }
    for (long bit : new long[] {SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR}) {
      p += first.has(bit) ? 8 : 0;
    }
    return b.getLong(p);
  }

  /**
   * False (with {@link #failure}) when a record of a known layout is not of its size: its type
   * or size is damaged. Call after {@link #trailer}, whose event says how long the trailer is.
   */
  boolean sizeFitsType(int type, ByteBuffer b) {
    if (type >= USER_TYPE_START) {
      failure = RecordLayouts.perfProblem(type, b);
    } else if (attr != null) {
      failure = RecordLayouts.kernelProblem(type, b, attr.idTrailerBytes(), readRecords);
    }
    return failure == null;
  }

  /** The time by which perf orders a record, or -1 when it has none (sent at once, as perf does). */
  long orderTime(ByteBuffer b) {
    int type = b.getInt(0);
    if (type >= USER_TYPE_START) {
      return -1;
    }
    if (type == SAMPLE) {
      return sample(b) && attr.has(SAMPLE_TIME) ? time : -1;
    }
    return trailer(b) && attr.has(SAMPLE_TIME) ? time : -1;
  }
}
