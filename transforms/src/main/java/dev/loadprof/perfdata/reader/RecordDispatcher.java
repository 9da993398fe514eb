package dev.loadprof.perfdata.reader;

import dev.loadprof.model.TraceEventSink;
import dev.loadprof.perfdata.symbols.Symbolizer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Sends one record, in perf script's order, to the sink as perf script's text would make the text
 * parser send it: samples with their stacks, sched_switch and sched_wakeup from their raw fields,
 * COMM/FORK/EXIT, SWITCH and LOST records; and keeps what later records need (thread names,
 * memory maps for the symbolizer). Records perf script does not print (MMAP, THROTTLE, ...) are
 * counted, not sent.
 */
final class RecordDispatcher {
  // Record types (linux/perf_event.h).
  static final int MMAP = 1;
  static final int LOST = 2;
  static final int COMM = 3;
  static final int EXIT = 4;
  static final int THROTTLE = 5;
  static final int UNTHROTTLE = 6;
  static final int FORK = 7;
  static final int MMAP2 = 10;
  static final int LOST_SAMPLES = 13;
  static final int SWITCH = 14;
  static final int SWITCH_CPU_WIDE = 15;

  private static final int MISC_COMM_EXEC = 1 << 13;
  private static final int MISC_SWITCH_OUT = 1 << 13;
  private static final int MISC_SWITCH_OUT_PREEMPT = 1 << 14;
  private static final int MISC_MMAP_BUILD_ID = 1 << 14;

  /**
   * Where SAMPLE records go once their thread's name and process's maps are known: decoded at
   * once, or later on another thread.
   */
  interface Samples {
    void sample(byte[] record, long offset, String comm, Symbolizer.View maps);
  }

  private final PerfDataFile file;
  private final RecordFields fields;
  private final Symbolizer symbolizer;
  private final ThreadComms comms = new ThreadComms();
  private TraceEventSink sink;
  private Samples samples;
  long throttles;
  /** Time with sampling throttled: from each THROTTLE to the UNTHROTTLE after it. */
  long throttledNs;
  /** The span of the records' times, for the share of it that was throttled. */
  long firstNs = Long.MAX_VALUE;
  long lastNs = Long.MIN_VALUE;
  private long throttledSince = -1;
  long unusedRecords;

  RecordDispatcher(PerfDataFile file, RecordFields fields, Symbolizer symbolizer) {
    this.file = file;
    this.fields = fields;
    this.symbolizer = symbolizer;
  }

  /** Sends every event to {@code to}, samples decoded at once by {@code decoder}. */
  void start(TraceEventSink to, SampleDecoder decoder) {
    start(to, (record, offset, comm, maps) -> decoder.decode(record, offset, comm, maps, to));
  }

  /** Sends the events of all records but samples to {@code to}, and samples to {@code later}. */
  void start(TraceEventSink to, Samples later) {
    this.sink = to;
    this.samples = later;
  }

  /** Sends one record; {@code offset} is its byte offset in the file, for messages. */
  void dispatch(byte[] record, long offset) {
    ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    int type = b.getInt(0);
    int misc = Short.toUnsignedInt(b.getShort(4));
    if (type == RecordFields.SAMPLE) {
      if (!fields.sample(b)) {
        sink.malformed(offset, "perf.data sample at byte " + offset + ": " + fields.failure, "");
        return;
      }
      samples.sample(record, offset, comms.inHeader(fields.tid), symbolizer.view(fields.pid));
      return;
    }
    boolean hasId = fields.trailer(b);
    if (!hasId && fields.failure != null) {
      sink.malformed(offset, "perf.data record at byte " + offset + ": " + fields.failure, "");
      return;
    }
    long time = fields.time;
    if (time > 0) {
      firstNs = Math.min(firstNs, time);
      lastNs = Math.max(lastNs, time);
    }
    switch (type) {
      case COMM -> {
        int pid = b.getInt(8);
        int tid = b.getInt(12);
        String name = cString(b, 16);
        boolean exec = (misc & MISC_COMM_EXEC) != 0;
        comms.comm(tid, name);
        if (exec) {
          symbolizer.exec(pid);
        }
        sink.comm(time, id(fields.cpu), id(pid), id(tid), comms.of(tid), exec);
      }
      case FORK -> {
        int pid = b.getInt(8);
        int ppid = b.getInt(12);
        int tid = b.getInt(16);
        int ptid = b.getInt(20);
        comms.fork(ptid, tid);
        symbolizer.fork(ppid, pid);
        sink.fork(time, id(pid), id(tid), id(ppid), id(ptid));
      }
      case EXIT -> sink.exit(time, id(b.getInt(8)), id(b.getInt(16)));
      case MMAP -> symbolizer.mmap(b.getInt(8), b.getLong(16), b.getLong(24), b.getLong(32),
          cString(b, 40), file.buildIds.get(cString(b, 40)));
      case MMAP2 -> mmap2(b, misc);
      case LOST -> sink.lost(time, b.getLong(16));
      case LOST_SAMPLES -> sink.lost(time, b.getLong(8));
      case SWITCH, SWITCH_CPU_WIDE -> {
        boolean out = (misc & MISC_SWITCH_OUT) != 0;
        sink.contextSwitch(time, id(fields.cpu), id(fields.pid), id(fields.tid),
            comms.inHeader(fields.tid), !out, out && (misc & MISC_SWITCH_OUT_PREEMPT) != 0);
      }
      case THROTTLE -> {
        throttles++;
        throttledSince = b.getLong(8);
      }
      case UNTHROTTLE -> {
        if (throttledSince >= 0 && b.getLong(8) >= throttledSince) {
          throttledNs += b.getLong(8) - throttledSince;
        }
        throttledSince = -1;
      }
      default -> unusedRecords++;
    }
  }

  private void mmap2(ByteBuffer b, int misc) {
    String name = cString(b, 72);
    byte[] buildId;
    if ((misc & MISC_MMAP_BUILD_ID) != 0) {
      buildId = new byte[Math.min(20, Byte.toUnsignedInt(b.get(40)))];
      b.get(44, buildId);
    } else {
      buildId = file.buildIds.get(name);
    }
    symbolizer.mmap(b.getInt(8), b.getLong(16), b.getLong(24), b.getLong(32), name, buildId);
  }

  private static int id(int v) {
    return SampleDecoder.id(v);
  }

  private static String cString(ByteBuffer b, int at) {
    int end = at;
    int limit = b.limit();
    while (end < limit && b.get(end) != 0) {
      end++;
    }
    return new String(b.array(), at, end - at, StandardCharsets.UTF_8);
  }
}
