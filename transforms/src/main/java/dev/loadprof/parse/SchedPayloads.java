package dev.loadprof.parse;

import static dev.loadprof.parse.TextScan.indexOf;

/**
 * Parses the payloads of the scheduler tracepoints loadprof uses, by their {@code key=} names
 * (never by splitting on blanks: comms contain spaces): sched:sched_switch ({@code prev_comm=..
 * prev_pid=.. prev_prio=.. prev_state=.. ==> next_comm=.. next_pid=.. next_prio=..}) and
 * sched:sched_wakeup[_new] ({@code comm=.. pid=.. prio=.. [success=1] target_cpu=..}). The result
 * is left in the fields (text as ranges of the buffer); one instance per parser.
 */
final class SchedPayloads {
  private final Digits digits;

  // sched_switch: text ranges and ids.
  int prevCommStart;
  int prevCommEnd;
  long prevTid;
  int prevStateStart;
  int prevStateEnd;
  int nextCommStart;
  int nextCommEnd;
  long nextTid;

  // sched_wakeup.
  int wakeCommStart;
  int wakeCommEnd;
  long wakeTid;
  int targetCpu;

  SchedPayloads(Digits digits) {
    this.digits = digits;
  }

  /** Parses a sched_switch payload b[p, pe); returns null, or what is missing. */
  String parseSwitch(char[] b, int p, int pe) {
    int commStart = indexOf(b, p, pe, "prev_comm=");
    if (commStart < 0) {
      return "sched_switch without prev_comm";
    }
    prevCommStart = commStart + "prev_comm=".length();
    int prevPidKey = indexOf(b, prevCommStart, pe, " prev_pid=");
    if (prevPidKey < 0) {
      return "sched_switch without prev_pid";
    }
    prevCommEnd = prevPidKey;
    prevTid = digits.signed(b, prevPidKey + " prev_pid=".length(), pe);
    if (prevTid == Long.MIN_VALUE) {
      return "sched_switch without prev_pid";
    }
    int stateKey = indexOf(b, digits.end, pe, " prev_state=");
    if (stateKey < 0) {
      return "sched_switch without prev_state";
    }
    prevStateStart = stateKey + " prev_state=".length();
    int stateEnd = indexOf(b, prevStateStart, pe, ' ');
    prevStateEnd = stateEnd < 0 ? pe : stateEnd;
    int nextKey = indexOf(b, prevStateEnd, pe, "next_comm=");
    if (nextKey < 0) {
      return "sched_switch without next_comm";
    }
    nextCommStart = nextKey + "next_comm=".length();
    int nextPidKey = indexOf(b, nextCommStart, pe, " next_pid=");
    nextCommEnd = nextPidKey;
    nextTid = nextPidKey < 0 ? Long.MIN_VALUE
        : digits.signed(b, nextPidKey + " next_pid=".length(), pe);
    if (nextTid == Long.MIN_VALUE) {
      return "sched_switch without next_pid";
    }
    return null;
  }

  /** Parses a sched_wakeup or sched_wakeup_new payload b[p, pe); returns null or what is missing. */
  String parseWakeup(char[] b, int p, int pe) {
    int commKey = indexOf(b, p, pe, "comm=");
    if (commKey < 0) {
      return "sched_wakeup without comm";
    }
    wakeCommStart = commKey + "comm=".length();
    int pidKey = indexOf(b, wakeCommStart, pe, " pid=");
    wakeCommEnd = pidKey;
    wakeTid = pidKey < 0 ? Long.MIN_VALUE : digits.signed(b, pidKey + " pid=".length(), pe);
    if (wakeTid == Long.MIN_VALUE) {
      return "sched_wakeup without pid";
    }
    int cpuKey = indexOf(b, digits.end, pe, " target_cpu=");
    long target = cpuKey < 0 ? -1 : digits.unsigned(b, cpuKey + " target_cpu=".length(), pe);
    if (target < 0 || target > Integer.MAX_VALUE) {
      return "sched_wakeup without target_cpu";
    }
    targetCpu = (int) target;
    return null;
  }
}
