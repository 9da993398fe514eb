package dev.loadprof.perfdata.reader;

import dev.loadprof.perfdata.reader.TracepointFormats.Field;
import dev.loadprof.perfdata.reader.TracepointFormats.Format;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the raw fields of sched:sched_switch and sched:sched_wakeup[_new] samples at the offsets
 * of the tracepoint formats in the file. One instance per reader; comms are interned.
 */
final class SchedRecords {
  /** What a tracepoint sample is to loadprof. */
  enum Kind { SWITCH, WAKEUP, OTHER }

  private final Map<String, String> comms = new HashMap<>();
  private Field prevComm;
  private Field prevPid;
  private Field prevState;
  private Field nextComm;
  private Field nextPid;
  private SchedFormats states;
  private Field wakeComm;
  private Field wakePid;
  private Field targetCpu;

  // The last record read.
  String prevCommText;
  int prevTid;
  String prevStateText;
  String nextCommText;
  int nextTid;
  String wakeCommText;
  int wakeTid;
  int target;

  /** Learns the formats the file's events use; throws when sched's fields are not as known. */
  SchedRecords(PerfDataFile file) throws UnsupportedPerfDataException {
    for (EventAttr attr : file.attrs) {
      if (!attr.isTracepoint()) {
        continue;
      }
      Format f = file.tracepoints.byId(attr.config());
      if (f == null) {
        throw new UnsupportedPerfDataException("it has no tracepoint format for " + attr.name());
      }
      switch (kind(f)) {
        case SWITCH -> {
          prevComm = need(f, "prev_comm");
          prevPid = need(f, "prev_pid");
          prevState = need(f, "prev_state");
          nextComm = need(f, "next_comm");
          nextPid = need(f, "next_pid");
          states = SchedFormats.fromPrintFormat(f.printFormat());
        }
        case WAKEUP -> {
          wakeComm = need(f, "comm");
          wakePid = need(f, "pid");
          targetCpu = need(f, "target_cpu");
        }
        default -> { }
      }
    }
  }

  static Kind kind(Format f) {
    if (f == null || !f.system().equals("sched")) {
      return Kind.OTHER;
    }
    return switch (f.name()) {
      case "sched_switch" -> Kind.SWITCH;
      case "sched_wakeup", "sched_wakeup_new", "sched_waking" -> Kind.WAKEUP;
      default -> Kind.OTHER;
    };
  }

  /** Reads a sched_switch's raw data at raw[at, at+size); false when it is too short. */
  boolean readSwitch(ByteBuffer b, int at, int size) {
    if (!fits(size, prevComm, prevPid, prevState, nextComm, nextPid)) {
      return false;
    }
    prevCommText = string(b, at, prevComm);
    prevTid = (int) number(b, at, prevPid);
    prevStateText = states.prevState(number(b, at, prevState));
    nextCommText = string(b, at, nextComm);
    nextTid = (int) number(b, at, nextPid);
    return true;
  }

  /** Reads a sched_wakeup's raw data; false when it is too short. */
  boolean readWakeup(ByteBuffer b, int at, int size) {
    if (!fits(size, wakeComm, wakePid, targetCpu)) {
      return false;
    }
    wakeCommText = string(b, at, wakeComm);
    wakeTid = (int) number(b, at, wakePid);
    target = (int) number(b, at, targetCpu);
    return true;
  }

  private static boolean fits(int size, Field... fields) {
    for (Field f : fields) {
      if (f.offset() + f.size() > size) {
        return false;
      }
    }
    return true;
  }

  private static Field need(Format f, String name) throws UnsupportedPerfDataException {
    Field field = f.field(name);
    if (field == null) {
      throw new UnsupportedPerfDataException(f.system() + ":" + f.name() + " has no field " + name);
    }
    return field;
  }

  private static long number(ByteBuffer b, int at, Field f) {
    int p = at + f.offset();
    return switch (f.size()) {
      case 1 -> f.signed() ? b.get(p) : Byte.toUnsignedLong(b.get(p));
      case 2 -> f.signed() ? b.getShort(p) : Short.toUnsignedLong(b.getShort(p));
      case 4 -> f.signed() ? b.getInt(p) : Integer.toUnsignedLong(b.getInt(p));
      default -> b.getLong(p);
    };
  }

  private String string(ByteBuffer b, int at, Field f) {
    int p = at + f.offset();
    int end = p;
    while (end < p + f.size() && b.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - p];
    b.get(p, bytes);
    String s = new String(bytes, StandardCharsets.UTF_8);
    String known = comms.putIfAbsent(s, s);
    return known != null ? known : s;
  }
}
