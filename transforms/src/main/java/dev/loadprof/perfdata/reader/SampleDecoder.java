package dev.loadprof.perfdata.reader;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.perfdata.symbols.FrameCache;
import dev.loadprof.perfdata.symbols.Symbolizer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;

/**
 * Sends one SAMPLE record to a sink as perf script's text would make the text parser send it:
 * a sample with its stack, or sched_switch / sched_wakeup from their raw fields. What it needs of
 * the records before it (the thread's name, the process's maps) it is given, so samples can be
 * decoded on any thread, in any order. One instance per thread.
 */
final class SampleDecoder {
  private static final int MISC_CPUMODE_MASK = 7;
  private static final int MISC_KERNEL = 1;
  // Callchain context markers: entries at or above PERF_CONTEXT_MAX (-4095) switch the mode.
  private static final long CONTEXT_MAX = -4095L;
  private static final long CONTEXT_HV = -32L;
  private static final long CONTEXT_KERNEL = -128L;
  private static final long CONTEXT_USER = -512L;
  /** perf script prints at most this many frames (kernel.perf_event_max_stack's default). */
  static final int MAX_STACK = 127;

  private static final Frame[] NO_FRAMES = new Frame[0];

  private final PerfDataFile file;
  private final RecordFields fields;
  private final SchedRecords sched;
  private final FrameCache cache;
  private final Map<Integer, SchedRecords.Kind> kinds = new HashMap<>();
  private final Frame[] frames = new Frame[MAX_STACK];

  SampleDecoder(PerfDataFile file, SchedRecords sched, Symbolizer symbolizer) {
    this.file = file;
    this.fields = new RecordFields(file.attrs, file.attrById);
    this.sched = sched;
    this.cache = new FrameCache(symbolizer);
  }

  /**
   * Sends the sample {@code record} (at byte {@code offset} of the file); {@code comm} is its
   * thread's name and {@code maps} its process's maps at the record's place in perf's order.
   */
  void decode(byte[] record, long offset, String comm, Symbolizer.View maps, TraceEventSink sink) {
    try {
      send(record, offset, comm, maps, sink);
    } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException
        | NegativeArraySizeException | IllegalArgumentException e) {
      // fields that do not fit in the record: this sample is damaged, the read goes on
      sink.malformed(offset, "perf.data sample at byte " + offset + " does not hold its own"
          + " fields (" + e.getClass().getSimpleName() + ")", "");
    }
  }

  private void send(byte[] record, long offset, String comm, Symbolizer.View maps,
      TraceEventSink sink) {
    ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    int misc = Short.toUnsignedInt(b.getShort(4));
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
              stack(b, misc, maps));
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
      default -> sink.sample(f.time, id(f.cpu), id(f.pid), id(f.tid), comm, attr.name(),
          f.period, stack(b, misc, maps));
    }
  }

  /** The sample's frames, leaf first, as perf script prints them. */
  private Frame[] stack(ByteBuffer b, int misc, Symbolizer.View maps) {
    RecordFields f = fields;
    if (!f.attr.has(EventAttr.SAMPLE_CALLCHAIN)) {
      return sampledFrame(misc, maps);
    }
    int n = 0;
    boolean kernel = false;
    for (int i = 0; i < f.callchainLength && n < MAX_STACK; i++) {
      long ip = b.getLong(f.callchainAt + i * 8);
      if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
        if (ip != CONTEXT_HV && ip != CONTEXT_KERNEL && ip != CONTEXT_USER) {
          // perf takes any other marker (a JIT's -1 in a user stack) for a corrupted chain and
          // prints none of it; so does perf script, whose text the native reader matches.
          return NO_FRAMES;
        }
        kernel = ip == CONTEXT_KERNEL;
        continue;
      }
      frames[n++] = cache.frame(maps, ip, kernel);
    }
    if (n == 0) {
      // A user-mode sample whose callchain left user space out (perf record --kernel-callchains):
      // its own function still counts, as perf report shows it.
      return sampledFrame(misc, maps);
    }
    Frame[] stack = new Frame[n];
    System.arraycopy(frames, 0, stack, 0, n);
    return stack;
  }

  /** The one frame of the sampled instruction (no callchain), or none without an ip. */
  private Frame[] sampledFrame(int misc, Symbolizer.View maps) {
    if (!fields.attr.has(EventAttr.SAMPLE_IP)) {
      return NO_FRAMES;
    }
    boolean kernel = (misc & MISC_CPUMODE_MASK) == MISC_KERNEL;
    return new Frame[] {cache.frame(maps, fields.ip, kernel)};
  }

  static int id(int v) {
    return v < 0 ? TraceEventSink.UNKNOWN_ID : v;
  }
}
