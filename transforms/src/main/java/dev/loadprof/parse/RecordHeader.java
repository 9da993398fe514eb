package dev.loadprof.parse;

import static dev.loadprof.parse.TextScan.indexOf;
import static dev.loadprof.parse.TextScan.isDigit;
import static dev.loadprof.parse.TextScan.skipBlanks;
import static dev.loadprof.parse.TextScan.toId;

import dev.loadprof.model.TraceEventSink;

/**
 * Parses a record's header line up to the colon after its time, in both layouts: {@code comm
 * pid/tid [cpu] s.nnnnnnnnn:} (perf script -F ... --ns) and {@code comm tid [cpu] s.uuuuuu:}
 * (plain perf script: no pid, microseconds), each with or without the {@code [cpu]} column (a
 * per-process recording has none unless it was made with --sample-cpu).
 *
 * <p>Headers are parsed by anchoring on {@code " [cpu] time:"}, never by splitting on blanks,
 * since comms ({@code Web Content}) contain spaces. The fields of the last header parsed are
 * public to the parser; one instance per parser.
 */
final class RecordHeader {
  /** Layout names, as in RunInfo.layout. */
  static final String LAYOUT_FIELDS = "fields";

  static final String LAYOUT_PLAIN = "plain";

  /** The kernel's comm is at most 15 bytes (TASK_COMM_LEN 16 with the NUL). */
  private static final int MAX_COMM_CHARS = 15;

  private final Digits digits;

  // The last header's fields.
  long time;
  int cpu;
  int pid;
  int tid;
  /** End of the comm: the comm is b[skipBlanks(s), commEnd). */
  int commEnd;
  /** Why the last parse failed. */
  String failure;
  /** "fields" or "plain" after the first header with pid/tid or only a tid; "" before. */
  String layout = "";

  // Result of wordBefore(): the word before a position and the end of the text before it.
  private int wordStart;
  private int wordEnd;
  private int beforeWordEnd;

  RecordHeader(Digits digits) {
    this.digits = digits;
  }

  /** For a new read: the layout is detected again. */
  void reset() {
    layout = "";
  }

  /**
   * Parses {@code comm pid/tid [cpu] time:} (or {@code comm tid [cpu] time:}) into the fields and
   * returns the index just past the ':' after the time, or -1 with {@link #failure} set.
   */
  int parse(char[] b, int s, int e) {
    failure = "not a perf script record";
    // The cpu field is a " [digits]" followed by blanks and a time. A comm may contain such a
    // field itself ("1/1 [7] 1.5: x" is a legal comm), but the kernel's comm is at most 15
    // bytes: of the candidates whose comm would fit in 15 chars, the last one is the field.
    int commStart = skipBlanks(b, s, e);
    int found = -1;
    for (int open = indexOf(b, s, e, " ["); open >= 0; open = indexOf(b, open + 1, e, " [")) {
      int i = open + 2;
      int cpuValue = 0;
      int cpuDigits = 0;
      while (i < e && isDigit(b[i]) && cpuDigits < 7) {
        cpuValue = cpuValue * 10 + (b[i++] - '0');
        cpuDigits++;
      }
      if (cpuDigits == 0 || i >= e || b[i] != ']' || i + 1 >= e || b[i + 1] != ' ') {
        continue;
      }
      int timeStart = skipBlanks(b, i + 1, e);
      long firstTime = time;
      int afterTime = parseTime(b, timeStart, e);
      if (afterTime < 0) {
        failure = "bad timestamp";
        continue;
      }
      wordBefore(b, s, open); // pid/tid (or tid) is the word before " ["
      if (found >= 0 && (beforeWordEnd - commStart > MAX_COMM_CHARS || wordStart == wordEnd
          || !isPidTid(b, wordStart, wordEnd))) {
        time = firstTime; // keep the first candidate's fields
        break;
      }
      if (wordStart == wordEnd || !parsePidTid(b, wordStart, wordEnd)) {
        failure = "bad pid/tid";
        return -1;
      }
      commEnd = beforeWordEnd;
      cpu = cpuValue;
      found = afterTime;
      if (beforeWordEnd - commStart > MAX_COMM_CHARS) {
        break;
      }
    }
    if (found >= 0) {
      return found;
    }
    return failure.equals("bad timestamp") ? -1 : parseWithoutCpu(b, s, e);
  }

  /**
   * Parses {@code comm pid/tid time:} (a recording without the cpu column): the time is the first
   * blank-preceded {@code digits.digits:} token whose preceding word is a pid/tid.
   */
  private int parseWithoutCpu(char[] b, int s, int e) {
    for (int i = s + 1; i < e; i++) {
      if (b[i - 1] != ' ' || !isDigit(b[i])) {
        continue;
      }
      int afterTime = parseTime(b, i, e);
      if (afterTime < 0) {
        continue;
      }
      wordBefore(b, s, i);
      if (wordStart == wordEnd || !parsePidTid(b, wordStart, wordEnd)) {
        continue;
      }
      commEnd = beforeWordEnd;
      cpu = TraceEventSink.UNKNOWN_ID;
      return afterTime;
    }
    failure = "not a perf script record";
    return -1;
  }

  /** The blank-delimited word that ends before {@code at} (blanks before {@code at} skipped). */
  private void wordBefore(char[] b, int s, int at) {
    int end = at;
    while (end > s && b[end - 1] == ' ') {
      end--;
    }
    int start = end;
    while (start > s && b[start - 1] != ' ') {
      start--;
    }
    int before = start;
    while (before > s && b[before - 1] == ' ') {
      before--;
    }
    wordStart = start;
    wordEnd = end;
    beforeWordEnd = before;
  }

  /** Whether the chars are "pid/tid" or "tid", without setting any field. */
  private boolean isPidTid(char[] b, int s, int e) {
    int slash = indexOf(b, s, e, '/');
    if (slash < 0) {
      return digits.isNumber(b, s, e);
    }
    return digits.isNumber(b, s, slash) && digits.isNumber(b, slash + 1, e);
  }

  /** Parses "pid/tid" or "tid" (plain layout); -1 becomes UNKNOWN_ID. Sets layout on first use. */
  private boolean parsePidTid(char[] b, int s, int e) {
    int slash = indexOf(b, s, e, '/');
    if (slash < 0) {
      long t = digits.signed(b, s, e);
      if (t == Long.MIN_VALUE || digits.end != e) {
        return false;
      }
      pid = TraceEventSink.UNKNOWN_ID;
      tid = toId(t);
      if (layout.isEmpty()) {
        layout = LAYOUT_PLAIN;
      }
      return true;
    }
    if (!digits.pair(b, s, e, '/')) {
      return false;
    }
    pid = digits.first;
    tid = digits.second;
    if (layout.isEmpty()) {
      layout = LAYOUT_FIELDS;
    }
    return true;
  }

  /**
   * Parses "seconds.fraction:" (1 to 9 fraction digits: 9 with --ns, 6 in plain perf script) into
   * {@link #time} in ns, exactly. Returns the index after the ':' or -1.
   */
  private int parseTime(char[] b, int s, int e) {
    int i = s;
    long seconds = 0;
    while (i < e && isDigit(b[i])) {
      if (i - s >= 10) {
        return -1; // would overflow a long in ns
      }
      seconds = seconds * 10 + (b[i++] - '0');
    }
    if (i == s || i >= e || b[i] != '.') {
      return -1;
    }
    int fracStart = ++i;
    long frac = 0;
    while (i < e && isDigit(b[i])) {
      if (i - fracStart >= 9) {
        return -1;
      }
      frac = frac * 10 + (b[i++] - '0');
    }
    int fracDigits = i - fracStart;
    if (fracDigits == 0 || i >= e || b[i] != ':' || (i + 1 < e && b[i + 1] != ' ')) {
      return -1;
    }
    for (int d = fracDigits; d < 9; d++) {
      frac *= 10;
    }
    time = seconds * 1_000_000_000L + frac;
    return i + 1;
  }
}
