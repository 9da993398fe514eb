package dev.loadprof.parse;

import static dev.loadprof.parse.TextScan.indexOf;
import static dev.loadprof.parse.TextScan.isNameChar;
import static dev.loadprof.parse.TextScan.lastIndexOf;
import static dev.loadprof.parse.TextScan.skipBlanks;
import static dev.loadprof.parse.TextScan.startsWith;
import static dev.loadprof.parse.TextScan.trimEnd;

import dev.loadprof.model.TraceEventSink;

/**
 * Sends perf's side-band lines ({@code --show-task-events}, {@code --show-switch-events},
 * {@code --show-lost-events}) to the sink: {@code PERF_RECORD_COMM}, {@code FORK}, {@code EXIT},
 * {@code SWITCH[_CPU_WIDE] IN|OUT [preempt]} and {@code LOST[_SAMPLES]}; other PERF_RECORD_*
 * lines are ignored by name. These lines have no stack. One instance per parser.
 */
final class TaskLines {
  static final String PREFIX = "PERF_RECORD_";

  private final Digits digits;
  private final InternedText text;

  TaskLines(Digits digits, InternedText text) {
    this.digits = digits;
    this.text = text;
  }

  /**
   * Sends the task line b[s, e) whose PERF_RECORD_ name starts at p, with the header's fields;
   * returns null, or why the line is malformed.
   */
  String send(char[] b, int s, int e, int p, RecordHeader h, TraceEventSink sink) {
    int nameEnd = p + PREFIX.length();
    while (nameEnd < e && isNameChar(b[nameEnd])) {
      nameEnd++;
    }
    String name = text.of(b, p, nameEnd);
    switch (name) {
      case "PERF_RECORD_COMM" -> {
        // "PERF_RECORD_COMM: name:pid/tid" or "PERF_RECORD_COMM exec: name:pid/tid"; the name
        // may contain ':' and blanks, so pid/tid is found after the last ':'.
        int i = nameEnd;
        boolean exec = startsWith(b, i, e, " exec");
        if (exec) {
          i += 5;
        }
        if (!startsWith(b, i, e, ": ")) {
          return "bad PERF_RECORD_COMM";
        }
        int commStart = i + 2;
        int end = trimEnd(b, commStart, e);
        int lastColon = lastIndexOf(b, commStart, end, ':');
        if (lastColon < 0 || !digits.pair(b, lastColon + 1, end, '/')) {
          return "bad PERF_RECORD_COMM";
        }
        sink.comm(h.time, h.cpu, digits.first, digits.second, text.of(b, commStart, lastColon),
            exec);
      }
      case "PERF_RECORD_FORK", "PERF_RECORD_EXIT" -> {
        // "(pid:tid):(ppid:ptid)"
        int end = trimEnd(b, nameEnd, e);
        int mid = indexOf(b, nameEnd, end, "):(");
        if (mid < 0 || b[nameEnd] != '(' || b[end - 1] != ')'
            || !digits.pair(b, nameEnd + 1, mid, ':')) {
          return "bad " + name;
        }
        int pid = digits.first;
        int tid = digits.second;
        if (!digits.pair(b, mid + 3, end - 1, ':')) {
          return "bad " + name;
        }
        if (name.equals("PERF_RECORD_FORK")) {
          sink.fork(h.time, pid, tid, digits.first, digits.second);
        } else {
          sink.exit(h.time, pid, tid);
        }
      }
      case "PERF_RECORD_SWITCH", "PERF_RECORD_SWITCH_CPU_WIDE" -> {
        // "PERF_RECORD_SWITCH IN", "... OUT preempt", "..._CPU_WIDE OUT  next pid/tid: 1/2"
        int i = skipBlanks(b, nameEnd, e);
        boolean in = startsWith(b, i, e, "IN") && (i + 2 == e || b[i + 2] == ' ');
        boolean out = startsWith(b, i, e, "OUT") && (i + 3 == e || b[i + 3] == ' ');
        if (!in && !out) {
          return "bad " + name + " (neither IN nor OUT)";
        }
        boolean preempt = out && startsWith(b, skipBlanks(b, i + 3, e), e, "preempt");
        String comm = text.of(b, skipBlanks(b, s, h.commEnd), h.commEnd);
        sink.contextSwitch(h.time, h.cpu, h.pid, h.tid, comm, in, preempt);
      }
      case "PERF_RECORD_LOST", "PERF_RECORD_LOST_SAMPLES" -> {
        // "PERF_RECORD_LOST lost 123". Older perf printed no count: then at least one was lost.
        int key = indexOf(b, nameEnd, e, " lost ");
        long count = 1;
        if (key >= 0) {
          count = digits.unsigned(b, key + " lost ".length(), e);
          if (count < 0) {
            return "bad " + name;
          }
        }
        sink.lost(h.time, count);
      }
      default -> sink.ignored(name);
    }
    return null;
  }
}
