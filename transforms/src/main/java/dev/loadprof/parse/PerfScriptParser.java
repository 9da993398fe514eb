package dev.loadprof.parse;

import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.model.TraceReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reads the text of {@code perf script} and sends its records to a {@link TraceEventSink}.
 *
 * <p>Two layouts are understood, detected per line:
 *
 * <ul>
 *   <li>the recommended one, {@code perf script -F comm,pid,tid,cpu,time,period,event,trace,ip,
 *       sym,dso --ns --show-task-events}: headers {@code comm pid/tid [cpu] s.nnnnnnnnn: period
 *       event: trace}, frames {@code addr sym (dso)}, and {@code PERF_RECORD_COMM/FORK/EXIT/LOST}
 *       task lines;
 *   <li>plain {@code perf script}: headers {@code comm tid [cpu] s.uuuuuu: [period] event: trace}
 *       (no pid, microseconds, no period for tracepoints) and frames {@code addr sym+0xoff (dso)}.
 *       The pid is reported as {@link TraceEventSink#UNKNOWN_ID}, times are converted to ns
 *       exactly and {@code +0x..} offsets are stripped so frames equal those of the other layout
 *       (both print the same instruction addresses).
 * </ul>
 *
 * <p>The {@code [cpu]} column is optional: a per-process recording ({@code perf record
 * --switch-events} without {@code -a}) has none unless {@code --sample-cpu} was given. Then the
 * cpu is {@link TraceEventSink#UNKNOWN_ID}, and {@code PERF_RECORD_SWITCH[_CPU_WIDE] IN|OUT}
 * lines ({@code perf script --show-switch-events}) go to {@link TraceEventSink#contextSwitch}.
 *
 * <p>A record is a header line, then tab-indented stack lines (leaf first), ended by a blank line,
 * the next header or the end of the input. Headers are parsed by anchoring on {@code " [cpu]
 * time:"} and on the {@code key=} names of the trace payload, never by splitting on blanks, since
 * comms ({@code Web Content}) and symbols ({@code foo(int, char const*)}) contain spaces. The dso
 * of a frame is the last balanced parenthesised group at the end of the line, when a blank
 * precedes it ({@code (/memfd:x (deleted))} is one dso; {@code foo(int)} is a symbol).
 *
 * <p>Bad input never throws; it goes to {@link TraceEventSink#malformed} with its 1-based line
 * number, and reading goes on. The rules, chosen so that one bad record is reported once:
 *
 * <ul>
 *   <li>A header that cannot be parsed is reported; the stack lines under it are skipped silently
 *       (they belong to that one bad record).
 *   <li>A stack line that cannot be parsed is reported and its sample is dropped (a stack missing
 *       a frame would be a wrong stack); the rest of that stack is skipped silently.
 *   <li>Stack lines with no record above them (e.g. after a blank line or a task line) are
 *       reported once per run of such lines, at the first one.
 *   <li>A sched_switch record's stack is the switched-out thread's call chain and is kept; a bad
 *       line in it is reported and the switch is sent without a stack (the loads need every
 *       switch). The stacks of other records (wakeups, ignored tracepoints) are not used and not
 *       parsed; those records are sent when their header is read.
 *   <li>perf ends every line with a newline, so a last line without one was cut mid-line: it is
 *       reported as "truncated last line", and if it was a stack line its sample is dropped.
 * </ul>
 *
 * <p>Lines beginning with {@code #} (from {@code perf script --header}) are ignored, except that
 * {@code # hostname : NAME} is kept for {@link #hostName()}, the date of {@code # captured on : DATE}
 * for the run's {@link RunInfo#capturedOn}. CRLF line ends are accepted.
 *
 * <p>Performance: this is the hot path of the tool, so lines are scanned in place in a char
 * buffer (no String per line, no regex), and comms, event names and frames are interned through
 * {@link RangeInterner} tables looked up by char range, so identical frames share one {@link
 * Frame} instance. An instance is not thread-safe; use one per thread. It can read several traces
 * one after the other.
 */
public final class PerfScriptParser implements TraceReader {
  /** Layout names, as in RunInfo.layout. */
  public static final String LAYOUT_FIELDS = "fields";

  public static final String LAYOUT_PLAIN = "plain";

  /** Frame caches are cleared beyond this many entries, to bound memory on huge traces. */
  static final int DEFAULT_MAX_FRAMES = 1 << 20;

  /** Lines longer than this are reported as malformed and skipped, to bound memory. */
  static final int DEFAULT_MAX_LINE_CHARS = 16 << 20;

  private static final int READ_CHUNK = 1 << 16;
  private static final int MAX_STRINGS = 1 << 16;
  private static final Frame[] NO_FRAMES = new Frame[0];

  private static final String SWITCH = "sched:sched_switch";
  private static final String WAKEUP = "sched:sched_wakeup";
  private static final String WAKEUP_NEW = "sched:sched_wakeup_new";
  private static final String TASK_PREFIX = "PERF_RECORD_";
  /** The kernel's comm is at most 15 bytes (TASK_COMM_LEN 16 with the NUL). */
  private static final int MAX_COMM_CHARS = 15;

  // What the lines that follow the current header belong to.
  private static final int NO_RECORD = 0; // stack lines here are out of place
  private static final int IN_SAMPLE = 1; // stack lines are frames of the pending record
  private static final int SKIP_STACK = 2; // stack of a record that is sent already or bad
  private static final int IN_ORPHAN = 3; // out-of-place stack lines, already reported

  private final int maxFrames;
  private final int maxLineChars;
  private final RangeInterner<Frame> framesByText;
  /**
   * Second level, so that equal frames read after a cache clear, or by another parser of the
   * same trace ({@link ParallelTextParser}), give the same instance: equal stacks then compare
   * by identity when they are interned per block.
   */
  private final Map<Frame, Frame> canonicalFrames;

  private final RangeInterner<String> strings = new RangeInterner<>(MAX_STRINGS);
  private final HashMap<String, String> dsos = new HashMap<>();

  // State of the current read.
  private TraceEventSink sink;
  /** The stream being read, which can tell whether its input ended early; or null. */
  private InputStream opened;
  private char[] buf = new char[READ_CHUNK * 2];
  private long lineNumber;
  private int state;
  /** From the header lines of the last read; null while none was seen. */
  private String hostName;

  private String capturedOn;
  private String layout = "";

  // The sample or switch being assembled (sent when its stack ends).
  private boolean pendingIsSwitch;
  private long sampleTime;
  private int sampleCpu;
  private int samplePid;
  private int sampleTid;
  private String sampleComm;
  private String sampleEvent;
  private long samplePeriod;
  private Frame[] frames = new Frame[128];
  // The pending sched_switch's payload (its time and cpu are sampleTime and sampleCpu).
  private long switchPeriod;
  private int switchPrevPid;
  private int switchPrevTid;
  private String switchPrevComm;
  private String switchPrevState;
  private int switchNextTid;
  private String switchNextComm;
  private int frameCount;

  // Header fields, filled by parseHeader.
  private long hTime;
  private int hCpu;
  private int hPid;
  private int hTid;
  private int hCommEnd;
  private String failure;

  /** Index just past the last number parsed by {@link #parseLong}. */
  private int numEnd;

  public PerfScriptParser() {
    this(DEFAULT_MAX_FRAMES, DEFAULT_MAX_LINE_CHARS);
  }

  /**
   * For tests: a parser whose frame caches are cleared beyond {@code maxFrames} entries and that
   * skips lines longer than {@code maxLineChars}.
   */
  PerfScriptParser(int maxFrames, int maxLineChars) {
    this(maxFrames, maxLineChars, new HashMap<>());
  }

  /** A parser that shares its canonical frames with the other parsers of one trace. */
  PerfScriptParser(ConcurrentHashMap<Frame, Frame> sharedFrames) {
    this(DEFAULT_MAX_FRAMES, DEFAULT_MAX_LINE_CHARS, sharedFrames);
  }

  private PerfScriptParser(int maxFrames, int maxLineChars, Map<Frame, Frame> canonicalFrames) {
    this.canonicalFrames = canonicalFrames;
    this.maxFrames = maxFrames;
    this.maxLineChars = maxLineChars;
    this.framesByText = new RangeInterner<>(maxFrames);
  }

  /** The host name from a {@code # hostname : NAME} header line of the last read, or "". */
  public String hostName() {
    return hostName == null ? "" : hostName;
  }

  /** The host name of the last read's header lines, or null if they had none. */
  String hostNameIfSeen() {
    return hostName;
  }

  /** The capture date of the last read's header lines, or null if they had none. */
  String capturedOnIfSeen() {
    return capturedOn;
  }

  /**
   * "fields" if the last read's first record header had {@code pid/tid}, "plain" if it had only
   * a tid, "" if there was no record.
   */
  public String layout() {
    return layout;
  }

  /** Number of lines of the last read. */
  public long lineCount() {
    return lineNumber;
  }
  /** The host and capture date from the header, and the lines read, for the run's info. */
  @Override
  public void describeRun(RunInfo run) {
    run.host = hostName();
    run.capturedOn = capturedOn == null ? "" : capturedOn;
    run.health.add(TraceHealth.LINES, lineCount());
  }


  /**
   * Reads perf script text. The contract asks for decompressed input, but a gzip stream passed by
   * mistake is decompressed too (detected by its magic bytes), rather than giving one malformed
   * report per line.
   */
  @Override
  public void read(InputStream in, String sourceName, TraceEventSink sink) throws IOException {
    // The decoder replaces bad UTF-8 with U+FFFD instead of throwing: bad bytes are bad data.
    InputStream text = TraceFiles.open(in);
    opened = text;
    try {
      read(new InputStreamReader(text, StandardCharsets.UTF_8), sink);
    } finally {
      opened = null;
    }
  }

  /** Like {@link #read(InputStream, String, TraceEventSink)}, for text that is already decoded. */
  public void read(Reader reader, TraceEventSink sink) throws IOException {
    readPart(reader, sink, 0, PartEnd.END, () -> TraceFiles.damage(opened));
  }

  /** How a part of a trace that is read in parts ({@link ParallelTextParser}) ends. */
  enum PartEnd {
    /**
     * Cut just before a record's header line: the pending record is sent at the end of the part,
     * as that header line would have sent it.
     */
    CUT,
    /** The end of the trace: its damage, if any, then a last line without a line end. */
    END,
    /**
     * Reading the trace failed after this part: its complete lines are read, and nothing more
     * (the pending record and a cut last line are dropped, as a direct read that fails does).
     */
    FAILED
  }

  /**
   * Reads one part of a trace, as if it followed the parts before it: its lines are numbered
   * after {@code linesBefore}, and a part other than the first starts at a record's header line.
   * {@code damage} tells, once the part is read, what ended the trace early (or null); it is asked
   * only for {@link PartEnd#END}.
   */
  void readPart(Reader reader, TraceEventSink sink, long linesBefore, PartEnd end,
      Supplier<String> damage) throws IOException {
    this.sink = sink;
    lineNumber = linesBefore;
    state = NO_RECORD;
    hostName = null;
    capturedOn = null;
    layout = "";
    frameCount = 0;
    try {
      readLines(reader, end, damage);
    } finally {
      this.sink = null;
      sampleComm = null;
      sampleEvent = null;
      switchPrevComm = null;
      switchPrevState = null;
      switchNextComm = null;
      Arrays.fill(frames, 0, frameCount, null);
      frameCount = 0;
    }
  }

  /** Splits the input into lines in {@link #buf} and hands each to {@link #line}. */
  private void readLines(Reader reader, PartEnd partEnd, Supplier<String> damageAtEnd)
      throws IOException {
    int start = 0; // first char of the current line
    int limit = 0; // end of the valid chars in buf
    int scan = 0; // where to go on looking for '\n'
    boolean skippingLongLine = false;
    while (true) {
      int nl = -1;
      char[] b = buf;
      for (int i = scan; i < limit; i++) {
        if (b[i] == '\n') {
          nl = i;
          break;
        }
      }
      if (nl >= 0) {
        if (skippingLongLine) {
          skippingLongLine = false; // its start was reported already
        } else if (nl - start > maxLineChars) {
          lineNumber++;
          tooLong(b, start);
        } else {
          int end = nl > start && b[nl - 1] == '\r' ? nl - 1 : nl;
          lineNumber++;
          line(b, start, end, true);
        }
        start = nl + 1;
        scan = start;
        continue;
      }
      // No full line in the buffer: move the partial line to the front and read more.
      if (start > 0) {
        System.arraycopy(b, start, b, 0, limit - start);
        limit -= start;
        start = 0;
      }
      if (limit - start > maxLineChars && !skippingLongLine) {
        lineNumber++;
        tooLong(b, start);
        skippingLongLine = true;
      }
      if (skippingLongLine) {
        limit = 0;
      }
      if (limit == buf.length) {
        buf = Arrays.copyOf(buf, buf.length * 2);
        b = buf;
      }
      scan = limit;
      int n;
      try {
        n = reader.read(buf, limit, buf.length - limit);
      } catch (IOException e) {
        endBeforeStartedHeader(start, limit, skippingLongLine);
        throw e;
      }
      if (n < 0) {
        break;
      }
      limit += n;
    }
    if (partEnd == PartEnd.FAILED) {
      endBeforeStartedHeader(start, limit, skippingLongLine);
      return;
    }
    String damage = partEnd == PartEnd.END ? damageAtEnd.get() : null;
    if (damage != null) {
      endBeforeStartedHeader(start, limit, skippingLongLine);
      // Said before the cut line, so that it is the first malformed line reported.
      sink.malformed(lineNumber + 1, damage + ". Re-create the file", "");
    }
    if (limit > start && !skippingLongLine) {
      int end = limit;
      if (buf[end - 1] == '\r') {
        end--;
      }
      lineNumber++;
      line(buf, start, end, false);
    }
    finishRecord();
  }

  /**
   * When reading fails: a record whose stack was followed by the start of a header line is
   * complete, and is sent (as {@link TraceParts} cuts a part before such a line); one whose stack
   * may go on is dropped.
   */
  private void endBeforeStartedHeader(int start, int limit, boolean skippingLongLine) {
    if (skippingLongLine || limit <= start || buf[start] == '\t' || buf[start] == '#') {
      return;
    }
    if (!isBlank(buf, start, limit) && !(limit - start == 1 && buf[start] == '\r')) {
      finishRecord();
    }
  }

  /** Reports a line over maxLineChars with its first 200 chars. */
  private void tooLong(char[] b, int start) {
    endRecordAfterBadLine(b, start);
    String head = new String(b, start, Math.min(200, maxLineChars + 1));
    sink.malformed(lineNumber, "line too long", head);
  }

  /** After a line that is reported as bad: a pending sample is dropped. */
  private void endRecordAfterBadLine(char[] b, int start) {
    if (b[start] == '\t') {
      if (state == IN_SAMPLE) {
        dropStack();
        state = SKIP_STACK;
      } else if (state == NO_RECORD) {
        state = IN_ORPHAN;
      }
    } else {
      finishRecord();
      state = SKIP_STACK;
    }
  }

  /** One line, without its line end; {@code terminated} is false for a last line cut short. */
  private void line(char[] b, int s, int e, boolean terminated) {
    if (!terminated) {
      if (isBlank(b, s, e)) {
        finishRecord();
        state = NO_RECORD;
        return;
      }
      endRecordAfterBadLine(b, s); // sends the previous record first, to keep the order
      sink.malformed(lineNumber, "truncated last line", new String(b, s, e - s));
      return;
    }
    if (isBlank(b, s, e)) { // returns at the first non-blank char, so cheap
      finishRecord();
      state = NO_RECORD;
      return;
    }
    char c = b[s];
    if (c == '\t') {
      stackLine(b, s, e);
    } else if (c == '#') {
      comment(b, s, e);
    } else {
      finishRecord();
      header(b, s, e);
    }
  }

  private void stackLine(char[] b, int s, int e) {
    switch (state) {
      case IN_SAMPLE -> {
        Frame f = frame(b, s, e);
        if (f == null) {
          sink.malformed(lineNumber, "bad stack line", new String(b, s, e - s));
          dropStack();
          state = SKIP_STACK;
        } else {
          if (frameCount == frames.length) {
            frames = Arrays.copyOf(frames, frameCount * 2);
          }
          frames[frameCount++] = f;
        }
      }
      case NO_RECORD -> {
        sink.malformed(lineNumber, "stack line outside a record", new String(b, s, e - s));
        state = IN_ORPHAN;
      }
      default -> {
        // SKIP_STACK, IN_ORPHAN: part of a record already sent or already reported.
      }
    }
  }

  private void comment(char[] b, int s, int e) {
    // "# hostname : NAME"
    int i = skipBlanks(b, s + 1, e);
    if (startsWith(b, i, e, "hostname")) {
      int j = skipBlanks(b, i + 8, e);
      if (j < e && b[j] == ':') {
        hostName = new String(b, j + 1, e - j - 1).trim();
      }
    } else if (startsWith(b, i, e, "captured on")) {
      // "# captured on    : Sun Nov 22 20:33:38 2026": the night of a nightly run
      int j = skipBlanks(b, i + 11, e);
      if (j < e && b[j] == ':') {
        LocalDate date = CapturedOn.parse(new String(b, j + 1, e - j - 1));
        capturedOn = date == null ? "" : date.toString();
      }
    }
  }

  // ---------------------------------------------------------------- records

  /** Sends the pending sample or switch, if any. */
  private void finishRecord() {
    if (state == IN_SAMPLE) {
      state = NO_RECORD;
      sendPending();
    }
  }

  private void sendPending() {
    Frame[] stack = frameCount == 0 ? NO_FRAMES : Arrays.copyOf(frames, frameCount);
    frameCount = 0;
    if (pendingIsSwitch) {
      sink.schedSwitch(sampleTime, sampleCpu, switchPeriod, switchPrevPid, switchPrevTid,
          switchPrevComm, switchPrevState, switchNextTid, switchNextComm, stack);
    } else {
      sink.sample(sampleTime, sampleCpu, samplePid, sampleTid, sampleComm, sampleEvent,
          samplePeriod, stack);
    }
  }

  /**
   * After a bad stack line: a sample is dropped (a stack missing a frame would be a wrong stack);
   * a switch is still sent, without a stack, because the loads need every switch.
   */
  private void dropStack() {
    frameCount = 0;
    if (pendingIsSwitch) {
      sendPending();
    }
  }

  private void header(char[] b, int s, int e) {
    int p = parseHeader(b, s, e);
    if (p < 0) {
      bad(b, s, e, failure);
      return;
    }
    p = skipBlanks(b, p, e);
    if (startsWith(b, p, e, TASK_PREFIX)) {
      taskEvent(b, s, e, p);
      return;
    }
    long period = 1; // tracepoints in the plain layout print no period
    if (p < e && isDigit(b[p])) {
      period = parseLong(b, p, e);
      if (period >= 0 && numEnd == e) {
        bad(b, s, e, "missing event name");
        return;
      }
      if (period < 0 || b[numEnd] != ' ') {
        bad(b, s, e, "bad period");
        return;
      }
      p = skipBlanks(b, numEnd, e);
    }
    // The event name ends at the first ':' followed by a blank or the line end: "cycles:u: ",
    // "sched:sched_switch: prev_comm=...".
    int colon = -1;
    for (int i = p; i < e; i++) {
      if (b[i] == ':' && (i + 1 == e || b[i + 1] == ' ')) {
        colon = i;
        break;
      }
    }
    if (colon <= p) {
      bad(b, s, e, "missing event name");
      return;
    }
    int payload = skipBlanks(b, colon + 1, e);
    int payloadEnd = trimEnd(b, payload, e);
    String event = intern(b, p, colon);
    if (event.equals(SWITCH)) {
      schedSwitch(b, s, e, period, payload, payloadEnd);
    } else if (event.equals(WAKEUP) || event.equals(WAKEUP_NEW)) {
      schedWakeup(b, s, e, payload, payloadEnd);
    } else if (payload == payloadEnd || startsWithAddress(b, payload, payloadEnd)) {
      sampleTime = hTime;
      sampleCpu = hCpu;
      samplePid = hPid;
      sampleTid = hTid;
      sampleComm = intern(b, skipBlanks(b, s, hCommEnd), hCommEnd);
      sampleEvent = event;
      samplePeriod = period;
      pendingIsSwitch = false;
      frameCount = 0;
      state = IN_SAMPLE;
      if (payload < payloadEnd) {
        // Recorded without -g, perf prints the sample's one frame on the header line.
        stackLine(b, payload, payloadEnd);
      }
    } else {
      sink.ignored(event);
      state = SKIP_STACK;
    }
  }

  /** "ffffffff8100 sym (dso)": an inline frame, not a tracepoint's "key=value" payload. */
  private static boolean startsWithAddress(char[] b, int s, int e) {
    int i = s;
    while (i < e && isHex(b[i])) {
      i++;
    }
    return i > s && (i == e || b[i] == ' ');
  }

  private void bad(char[] b, int s, int e, String reason) {
    sink.malformed(lineNumber, reason, new String(b, s, e - s));
    state = SKIP_STACK; // its stack lines are part of this one bad record
  }

  /**
   * Parses {@code comm pid/tid [cpu] time:} (or {@code comm tid [cpu] time:}) into the h* fields
   * and returns the index just past the ':' after the time, or -1 with {@link #failure} set.
   */
  private int parseHeader(char[] b, int s, int e) {
    failure = "not a perf script record";
    // The cpu field is a " [digits]" followed by blanks and a time. A comm may contain such a
    // field itself ("1/1 [7] 1.5: x" is a legal comm), but the kernel's comm is at most 15
    // bytes: of the candidates whose comm would fit in 15 chars, the last one is the field.
    int commStart = skipBlanks(b, s, e);
    int found = -1;
    for (int open = indexOf(b, s, e, " ["); open >= 0; open = indexOf(b, open + 1, e, " [")) {
      int i = open + 2;
      int cpu = 0;
      int digits = 0;
      while (i < e && isDigit(b[i]) && digits < 7) {
        cpu = cpu * 10 + (b[i++] - '0');
        digits++;
      }
      if (digits == 0 || i >= e || b[i] != ']' || i + 1 >= e || b[i + 1] != ' ') {
        continue;
      }
      int timeStart = skipBlanks(b, i + 1, e);
      long time = hTime;
      int afterTime = parseTime(b, timeStart, e);
      if (afterTime < 0) {
        failure = "bad timestamp";
        continue;
      }
      // pid/tid (or tid) is the word before " [".
      int tokEnd = open;
      while (tokEnd > s && b[tokEnd - 1] == ' ') {
        tokEnd--;
      }
      int tokStart = tokEnd;
      while (tokStart > s && b[tokStart - 1] != ' ') {
        tokStart--;
      }
      int commEnd = tokStart;
      while (commEnd > s && b[commEnd - 1] == ' ') {
        commEnd--;
      }
      if (found >= 0 && (commEnd - commStart > MAX_COMM_CHARS || tokStart == tokEnd
          || !isPidTid(b, tokStart, tokEnd))) {
        hTime = time; // keep the first candidate's fields
        break;
      }
      if (tokStart == tokEnd || !parsePidTid(b, tokStart, tokEnd)) {
        failure = "bad pid/tid";
        return -1;
      }
      hCommEnd = commEnd;
      hCpu = cpu;
      found = afterTime;
      if (commEnd - commStart > MAX_COMM_CHARS) {
        break;
      }
    }
    if (found >= 0) {
      return found;
    }
    return failure.equals("bad timestamp") ? -1 : parseHeaderWithoutCpu(b, s, e);
  }

  /**
   * Parses {@code comm pid/tid time:} (a recording without the cpu column): the time is the first
   * blank-preceded {@code digits.digits:} token whose preceding word is a pid/tid.
   */
  private int parseHeaderWithoutCpu(char[] b, int s, int e) {
    for (int i = s + 1; i < e; i++) {
      if (b[i - 1] != ' ' || !isDigit(b[i])) {
        continue;
      }
      int afterTime = parseTime(b, i, e);
      if (afterTime < 0) {
        continue;
      }
      int tokEnd = i;
      while (tokEnd > s && b[tokEnd - 1] == ' ') {
        tokEnd--;
      }
      int tokStart = tokEnd;
      while (tokStart > s && b[tokStart - 1] != ' ') {
        tokStart--;
      }
      if (tokStart == tokEnd || !parsePidTid(b, tokStart, tokEnd)) {
        continue;
      }
      int commEnd = tokStart;
      while (commEnd > s && b[commEnd - 1] == ' ') {
        commEnd--;
      }
      hCommEnd = commEnd;
      hCpu = TraceEventSink.UNKNOWN_ID;
      return afterTime;
    }
    failure = "not a perf script record";
    return -1;
  }

  /** Whether the chars are "pid/tid" or "tid", without setting any field. */
  private boolean isPidTid(char[] b, int s, int e) {
    int slash = indexOf(b, s, e, '/');
    if (slash < 0) {
      return parseSigned(b, s, e) != Long.MIN_VALUE && numEnd == e;
    }
    return parseSigned(b, s, slash) != Long.MIN_VALUE && numEnd == slash
        && parseSigned(b, slash + 1, e) != Long.MIN_VALUE && numEnd == e;
  }

  /** Parses "pid/tid" or "tid" (plain layout); -1 becomes UNKNOWN_ID. Sets layout on first use. */
  private boolean parsePidTid(char[] b, int s, int e) {
    int slash = indexOf(b, s, e, '/');
    if (slash < 0) {
      long tid = parseSigned(b, s, e);
      if (tid == Long.MIN_VALUE || numEnd != e) {
        return false;
      }
      hPid = TraceEventSink.UNKNOWN_ID;
      hTid = toId(tid);
      if (layout.isEmpty()) {
        layout = LAYOUT_PLAIN;
      }
      return true;
    }
    long pid = parseSigned(b, s, slash);
    if (pid == Long.MIN_VALUE || numEnd != slash) {
      return false;
    }
    long tid = parseSigned(b, slash + 1, e);
    if (tid == Long.MIN_VALUE || numEnd != e) {
      return false;
    }
    hPid = toId(pid);
    hTid = toId(tid);
    if (layout.isEmpty()) {
      layout = LAYOUT_FIELDS;
    }
    return true;
  }

  /**
   * Parses "seconds.fraction:" (1 to 9 fraction digits: 9 with --ns, 6 in plain perf script) into
   * {@link #hTime} in ns, exactly. Returns the index after the ':' or -1.
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
    hTime = seconds * 1_000_000_000L + frac;
    return i + 1;
  }

  private void schedSwitch(char[] b, int s, int e, long period, int p, int pe) {
    if (hCpu == TraceEventSink.UNKNOWN_ID) {
      bad(b, s, e, "sched_switch without a [cpu] column (add cpu to perf script -F)");
      return;
    }
    int prevCommStart = indexOf(b, p, pe, "prev_comm=");
    if (prevCommStart < 0) {
      bad(b, s, e, "sched_switch without prev_comm");
      return;
    }
    prevCommStart += "prev_comm=".length();
    int prevPidKey = indexOf(b, prevCommStart, pe, " prev_pid=");
    if (prevPidKey < 0) {
      bad(b, s, e, "sched_switch without prev_pid");
      return;
    }
    long prevTid = parseSigned(b, prevPidKey + " prev_pid=".length(), pe);
    if (prevTid == Long.MIN_VALUE) {
      bad(b, s, e, "sched_switch without prev_pid");
      return;
    }
    int stateKey = indexOf(b, numEnd, pe, " prev_state=");
    if (stateKey < 0) {
      bad(b, s, e, "sched_switch without prev_state");
      return;
    }
    int stateStart = stateKey + " prev_state=".length();
    int stateEnd = indexOf(b, stateStart, pe, ' ');
    if (stateEnd < 0) {
      stateEnd = pe;
    }
    int nextCommStart = indexOf(b, stateEnd, pe, "next_comm=");
    if (nextCommStart < 0) {
      bad(b, s, e, "sched_switch without next_comm");
      return;
    }
    nextCommStart += "next_comm=".length();
    int nextPidKey = indexOf(b, nextCommStart, pe, " next_pid=");
    long nextTid =
        nextPidKey < 0 ? Long.MIN_VALUE : parseSigned(b, nextPidKey + " next_pid=".length(), pe);
    if (nextTid == Long.MIN_VALUE) {
      bad(b, s, e, "sched_switch without next_pid");
      return;
    }
    // Sent when its stack (the switched-out thread's call chain) ends.
    sampleTime = hTime;
    sampleCpu = hCpu;
    switchPeriod = period;
    switchPrevPid = hPid;
    switchPrevTid = toId(prevTid);
    switchPrevComm = intern(b, prevCommStart, prevPidKey);
    switchPrevState = intern(b, stateStart, stateEnd);
    switchNextTid = toId(nextTid);
    switchNextComm = intern(b, nextCommStart, nextPidKey);
    pendingIsSwitch = true;
    frameCount = 0;
    state = IN_SAMPLE;
  }

  private void schedWakeup(char[] b, int s, int e, int p, int pe) {
    int commStart = indexOf(b, p, pe, "comm=");
    if (commStart < 0) {
      bad(b, s, e, "sched_wakeup without comm");
      return;
    }
    commStart += "comm=".length();
    int pidKey = indexOf(b, commStart, pe, " pid=");
    long tid = pidKey < 0 ? Long.MIN_VALUE : parseSigned(b, pidKey + " pid=".length(), pe);
    if (tid == Long.MIN_VALUE) {
      bad(b, s, e, "sched_wakeup without pid");
      return;
    }
    int cpuKey = indexOf(b, numEnd, pe, " target_cpu=");
    long target = cpuKey < 0 ? -1 : parseLong(b, cpuKey + " target_cpu=".length(), pe);
    if (target < 0 || target > Integer.MAX_VALUE) {
      bad(b, s, e, "sched_wakeup without target_cpu");
      return;
    }
    sink.schedWakeup(hTime, hCpu, hPid, hTid, toId(tid), intern(b, commStart, pidKey),
        (int) target);
    state = SKIP_STACK;
  }

  /** PERF_RECORD_COMM / FORK / EXIT / LOST lines; others are ignored by name. */
  private void taskEvent(char[] b, int s, int e, int p) {
    int nameEnd = p + TASK_PREFIX.length();
    while (nameEnd < e && isNameChar(b[nameEnd])) {
      nameEnd++;
    }
    String name = intern(b, p, nameEnd);
    state = NO_RECORD; // task lines have no stack
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
          bad(b, s, e, "bad PERF_RECORD_COMM");
          return;
        }
        int commStart = i + 2;
        int end = trimEnd(b, commStart, e);
        int lastColon = lastIndexOf(b, commStart, end, ':');
        if (lastColon < 0 || !parsePidTidPair(b, lastColon + 1, end, '/')) {
          bad(b, s, e, "bad PERF_RECORD_COMM");
          return;
        }
        sink.comm(hTime, hCpu, pairA, pairB, intern(b, commStart, lastColon), exec);
      }
      case "PERF_RECORD_FORK", "PERF_RECORD_EXIT" -> {
        // "(pid:tid):(ppid:ptid)"
        int end = trimEnd(b, nameEnd, e);
        int mid = indexOf(b, nameEnd, end, "):(");
        if (mid < 0 || b[nameEnd] != '(' || b[end - 1] != ')'
            || !parsePidTidPair(b, nameEnd + 1, mid, ':')) {
          bad(b, s, e, "bad " + name);
          return;
        }
        int pid = pairA;
        int tid = pairB;
        if (!parsePidTidPair(b, mid + 3, end - 1, ':')) {
          bad(b, s, e, "bad " + name);
          return;
        }
        if (name.equals("PERF_RECORD_FORK")) {
          sink.fork(hTime, pid, tid, pairA, pairB);
        } else {
          sink.exit(hTime, pid, tid);
        }
      }
      case "PERF_RECORD_SWITCH", "PERF_RECORD_SWITCH_CPU_WIDE" -> {
        // "PERF_RECORD_SWITCH IN", "... OUT preempt", "..._CPU_WIDE OUT  next pid/tid: 1/2"
        int i = skipBlanks(b, nameEnd, e);
        boolean in = startsWith(b, i, e, "IN") && (i + 2 == e || b[i + 2] == ' ');
        boolean out = startsWith(b, i, e, "OUT") && (i + 3 == e || b[i + 3] == ' ');
        if (!in && !out) {
          bad(b, s, e, "bad " + name + " (neither IN nor OUT)");
          return;
        }
        String comm = intern(b, skipBlanks(b, s, hCommEnd), hCommEnd);
        boolean preempt = out && startsWith(b, skipBlanks(b, i + 3, e), e, "preempt");
        sink.contextSwitch(hTime, hCpu, hPid, hTid, comm, in, preempt);
      }
      case "PERF_RECORD_LOST", "PERF_RECORD_LOST_SAMPLES" -> {
        // "PERF_RECORD_LOST lost 123". Older perf printed no count: then at least one was lost.
        int key = indexOf(b, nameEnd, e, " lost ");
        long count = 1;
        if (key >= 0) {
          count = parseLong(b, key + " lost ".length(), e);
          if (count < 0) {
            bad(b, s, e, "bad " + name);
            return;
          }
        }
        sink.lost(hTime, count);
      }
      default -> sink.ignored(name);
    }
  }

  // Result of parsePidTidPair.
  private int pairA;
  private int pairB;

  /** Parses "a<sep>b" filling the whole range b[s, e) into pairA, pairB (-1 is UNKNOWN_ID). */
  private boolean parsePidTidPair(char[] b, int s, int e, char sep) {
    int at = indexOf(b, s, e, sep);
    if (at < 0) {
      return false;
    }
    long x = parseSigned(b, s, at);
    if (x == Long.MIN_VALUE || numEnd != at) {
      return false;
    }
    long y = parseSigned(b, at + 1, e);
    if (y == Long.MIN_VALUE || numEnd != e) {
      return false;
    }
    pairA = toId(x);
    pairB = toId(y);
    return true;
  }

  // ---------------------------------------------------------------- frames

  /**
   * Parses a stack line {@code \t addr sym (dso)} into an interned Frame, or returns null when
   * it has no hex address. Frames are interned by their whole text, address included.
   */
  private Frame frame(char[] b, int s, int e) {
    int i = s;
    while (i < e && (b[i] == '\t' || b[i] == ' ')) {
      i++;
    }
    int addrStart = i;
    long address = 0;
    while (i < e && isHex(b[i])) {
      address = (address << 4) | Character.digit(b[i], 16);
      i++;
    }
    if (i == addrStart || (i < e && b[i] != ' ')) {
      return null;
    }
    int t = skipBlanks(b, i, e);
    int te = trimEnd(b, t, e);
    int h = RangeInterner.hash(b, addrStart, te);
    Frame f = framesByText.get(b, addrStart, te, h);
    if (f != null) {
      return f;
    }
    // perf -F ip alone prints bare addresses.
    f = canonical(t == te ? new Frame("[unknown]", "", address) : parseFrameText(b, t, te, address));
    framesByText.put(new String(b, addrStart, te - addrStart), f);
    return f;
  }

  private Frame canonical(Frame f) {
    Frame known = canonicalFrames.putIfAbsent(f, f);
    if (known != null) {
      return known;
    }
    if (canonicalFrames.size() > maxFrames) {
      canonicalFrames.clear(); // bounds memory; frames stay equal, only sharing is lost
    }
    return f;
  }

  /** "sym (dso)" or "sym": the dso is the last balanced (...) group, if a blank precedes it. */
  private Frame parseFrameText(char[] b, int t, int te, long address) {
    int symEnd = te;
    String dso = "";
    if (b[te - 1] == ')') {
      int depth = 0;
      int open = -1;
      for (int i = te - 1; i >= t; i--) {
        char c = b[i];
        if (c == ')') {
          depth++;
        } else if (c == '(' && --depth == 0) {
          open = i;
          break;
        }
      }
      if (open == t || (open > t && b[open - 1] == ' ')) {
        String text = new String(b, open + 1, te - open - 2);
        dso = dsos.computeIfAbsent(text, k -> k);
        symEnd = trimEnd(b, t, open);
      }
    }
    symEnd = stripOffset(b, t, symEnd);
    return new Frame(new String(b, t, symEnd - t), dso, address);
  }

  /** Strips a trailing "+0x1f" (plain perf script and -F symoff) from a symbol. */
  private static int stripOffset(char[] b, int s, int e) {
    int i = e;
    while (i > s && isHex(b[i - 1])) {
      i--;
    }
    if (i < e && i - 3 >= s && b[i - 1] == 'x' && b[i - 2] == '0' && b[i - 3] == '+') {
      return i - 3;
    }
    return e;
  }

  // ---------------------------------------------------------------- scanning helpers

  private String intern(char[] b, int s, int e) {
    int h = RangeInterner.hash(b, s, e);
    String v = strings.get(b, s, e, h);
    if (v == null) {
      v = new String(b, s, e - s);
      strings.put(v, v);
    }
    return v;
  }

  /** Parses unsigned decimal digits at b[s..] (up to e); sets numEnd. -1 if none or overflow. */
  private long parseLong(char[] b, int s, int e) {
    long v = 0;
    int i = s;
    while (i < e && isDigit(b[i])) {
      if (i - s >= 18) {
        numEnd = i;
        return -1;
      }
      v = v * 10 + (b[i++] - '0');
    }
    numEnd = i;
    return i == s ? -1 : v;
  }

  /** Like parseLong with an optional '-'; Long.MIN_VALUE if no number. */
  private long parseSigned(char[] b, int s, int e) {
    boolean negative = s < e && b[s] == '-';
    long v = parseLong(b, negative ? s + 1 : s, e);
    if (v < 0) {
      return Long.MIN_VALUE;
    }
    return negative ? -v : v;
  }

  /** -1 (perf's "unknown") and values that are not ints become UNKNOWN_ID. */
  private static int toId(long v) {
    return v < 0 || v > Integer.MAX_VALUE ? TraceEventSink.UNKNOWN_ID : (int) v;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Chars of a PERF_RECORD_* name: "MMAP2", "LOST_SAMPLES". */
  private static boolean isNameChar(char c) {
    return (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_';
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean isBlank(char[] b, int s, int e) {
    for (int i = s; i < e; i++) {
      if (b[i] != ' ' && b[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  private static int skipBlanks(char[] b, int i, int e) {
    while (i < e && b[i] == ' ') {
      i++;
    }
    return i;
  }

  private static int trimEnd(char[] b, int s, int e) {
    while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
      e--;
    }
    return e;
  }

  private static boolean startsWith(char[] b, int i, int e, String prefix) {
    int n = prefix.length();
    if (e - i < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[i + k] != prefix.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(char[] b, int s, int e, char c) {
    for (int i = s; i < e; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexOf(char[] b, int s, int e, char c) {
    for (int i = e - 1; i >= s; i--) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOf(char[] b, int s, int e, String needle) {
    char first = needle.charAt(0);
    int n = needle.length();
    for (int i = s, last = e - n; i <= last; i++) {
      if (b[i] == first && startsWith(b, i, e, needle)) {
        return i;
      }
    }
    return -1;
  }
}
