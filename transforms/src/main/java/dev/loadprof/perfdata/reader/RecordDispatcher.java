package dev.loadprof.perfdata.reader;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.perfdata.symbols.Symbolizer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

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

  private static final int MISC_CPUMODE_MASK = 7;
  private static final int MISC_KERNEL = 1;
  private static final int MISC_COMM_EXEC = 1 << 13;
  private static final int MISC_SWITCH_OUT = 1 << 13;
  private static final int MISC_SWITCH_OUT_PREEMPT = 1 << 14;
  private static final int MISC_MMAP_BUILD_ID = 1 << 14;

  // Callchain context markers: entries at or above PERF_CONTEXT_MAX (-4095) switch the mode.
  private static final long CONTEXT_MAX = -4095L;
  private static final long CONTEXT_KERNEL = -128L;
  private static final long CONTEXT_GUEST_KERNEL = -2176L;
  /** perf script prints at most this many frames (kernel.perf_event_max_stack's default). */
  static final int MAX_STACK = 127;

  private static final Frame[] NO_FRAMES = new Frame[0];

  private final PerfDataFile file;
  private final RecordFields fields;
  private final SchedRecords sched;
  private final Symbolizer symbolizer;
  private final ThreadComms comms = new ThreadComms();
  private final Map<Integer, SchedRecords.Kind> kinds = new HashMap<>();
  private final Frame[] frames = new Frame[MAX_STACK];
  private TraceEventSink sink;
  long throttles;
  /** Time with sampling throttled: from each THROTTLE to the UNTHROTTLE after it. */
  long throttledNs;
  /** The span of the records' times, for the share of it that was throttled. */
  long firstNs = Long.MAX_VALUE;
  long lastNs = Long.MIN_VALUE;
  private long throttledSince = -1;
  long unusedRecords;

  RecordDispatcher(PerfDataFile file, RecordFields fields, SchedRecords sched,
      Symbolizer symbolizer) {
    this.file = file;
    this.fields = fields;
    this.sched = sched;
    this.symbolizer = symbolizer;
  }

  void start(TraceEventSink to) {
    this.sink = to;
  }

  /** Sends one record; {@code offset} is its byte offset in the file, for messages. */
  void dispatch(byte[] record, long offset) {
    ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    int type = b.getInt(0);
    int misc = Short.toUnsignedInt(b.getShort(4));
    if (type == RecordFields.SAMPLE) {
      sample(b, misc, offset);
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

  private void sample(ByteBuffer b, int misc, long offset) {
    RecordFields f = fields;
    if (!f.sample(b)) {
      sink.malformed(offset, "perf.data sample at byte " + offset + ": " + f.failure, "");
      return;
    }
    EventAttr attr = f.attr;
    SchedRecords.Kind kind = SchedRecords.Kind.OTHER;
    if (attr.isTracepoint()) {
      kind = kinds.computeIfAbsent((int) attr.config(),
          c -> SchedRecords.kind(file.tracepoints.byId(c)));
      if (kind == SchedRecords.Kind.OTHER) {
        sink.ignored(attr.name());
        return;
      }
    }
    switch (kind) {
      case SWITCH -> {
        if (f.cpu < 0) {
          sink.malformed(offset, "sched_switch without a cpu (record with -a)", "");
        } else if (!sched.readSwitch(b, f.rawAt, f.rawSize)) {
          sink.malformed(offset, "sched_switch at byte " + offset + " shorter than its format", "");
        } else {
          sink.schedSwitch(f.time, f.cpu, f.period, id(f.pid), id(sched.prevTid),
              sched.prevCommText, sched.prevStateText, id(sched.nextTid), sched.nextCommText,
              stack(b, misc));
        }
      }
      case WAKEUP -> {
        if (!sched.readWakeup(b, f.rawAt, f.rawSize)) {
          sink.malformed(offset, "sched_wakeup at byte " + offset + " shorter than its format", "");
        } else {
          sink.schedWakeup(f.time, id(f.cpu), id(f.pid), id(f.tid), id(sched.wakeTid),
              sched.wakeCommText, sched.target);
        }
      }
      default -> sink.sample(f.time, id(f.cpu), id(f.pid), id(f.tid), comms.inHeader(f.tid),
          attr.name(), f.period, stack(b, misc));
    }
  }

  /** The sample's frames, leaf first, as perf script prints them. */
  private Frame[] stack(ByteBuffer b, int misc) {
    RecordFields f = fields;
    if (!f.attr.has(EventAttr.SAMPLE_CALLCHAIN)) {
      if (!f.attr.has(EventAttr.SAMPLE_IP)) {
        return NO_FRAMES;
      }
      boolean kernel = (misc & MISC_CPUMODE_MASK) == MISC_KERNEL;
      return new Frame[] {symbolizer.frame(kernel ? -1 : f.pid, f.ip, kernel)};
    }
    int n = 0;
    boolean kernel = false;
    for (int i = 0; i < f.callchainLength && n < MAX_STACK; i++) {
      long ip = b.getLong(f.callchainAt + i * 8);
      if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
        kernel = ip == CONTEXT_KERNEL || ip == CONTEXT_GUEST_KERNEL;
        continue;
      }
      frames[n++] = symbolizer.frame(kernel ? -1 : f.pid, ip, kernel);
    }
    if (n == 0) {
      return NO_FRAMES;
    }
    Frame[] stack = new Frame[n];
    System.arraycopy(frames, 0, stack, 0, n);
    return stack;
  }

  private static int id(int v) {
    return v < 0 ? TraceEventSink.UNKNOWN_ID : v;
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
