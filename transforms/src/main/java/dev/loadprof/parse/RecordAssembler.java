package dev.loadprof.parse;

import static dev.loadprof.parse.TextScan.isBlank;
import static dev.loadprof.parse.TextScan.isDigit;
import static dev.loadprof.parse.TextScan.skipBlanks;
import static dev.loadprof.parse.TextScan.startsWith;
import static dev.loadprof.parse.TextScan.toId;
import static dev.loadprof.parse.TextScan.trimEnd;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Map;

/**
 * The record state machine of perf script text: a record is a header line, then tab-indented
 * stack lines (leaf first), ended by a blank line, the next header or the end of the input. A
 * sample or a sched_switch is held until its stack ends and then sent with it; other records are
 * sent when their header is read. The parts it uses each do one job: {@link RecordHeader},
 * {@link SchedPayloads}, {@link TaskLines}, {@link StackFrames}.
 *
 * <p>Bad input never throws; it goes to {@link TraceEventSink#malformed} with its 1-based line
 * number, and reading goes on. The rules, chosen so that one bad record is reported once:
 *
 * <ul>
 *   <li>A header that cannot be parsed is reported; the stack lines under it are skipped silently
 *       (they belong to that one bad record).
 *   <li>A stack line that cannot be parsed is reported and its sample is dropped (a stack missing
 *       a frame would be a wrong stack); a switch is still sent, without a stack, because the loads
 *       need every switch. The rest of that stack is skipped silently.
 *   <li>Stack lines with no record above them (e.g. after a blank line or a task line) are
 *       reported once per run of such lines, at the first one.
 *   <li>The stacks of wakeups and ignored tracepoints are not used and not parsed.
 *   <li>perf ends every line with a newline, so a last line without one was cut mid-line: it is
 *       reported as "truncated last line", and if it was a stack line its sample is dropped.
 * </ul>
 *
 * <p>Lines beginning with {@code #} (from {@code perf script --header}) are ignored, except
 * {@code # hostname : NAME} and the date of {@code # captured on : DATE}, which are kept.
 */
final class RecordAssembler implements LineScanner.Lines {
  private static final Frame[] NO_FRAMES = new Frame[0];
  private static final String SWITCH = "sched:sched_switch";
  private static final String WAKEUP = "sched:sched_wakeup";
  private static final String WAKEUP_NEW = "sched:sched_wakeup_new";
  /** The same wake-up, recorded in the waker's context (sched_wakeup may be in the idle task). */
  private static final String WAKING = "sched:sched_waking";

  // What the lines that follow the current header belong to.
  private static final int NO_RECORD = 0; // stack lines here are out of place
  private static final int IN_STACK = 1; // stack lines are frames of the pending record
  private static final int SKIP_STACK = 2; // stack of a record that is sent already or bad
  private static final int IN_ORPHAN = 3; // out-of-place stack lines, already reported

  private final Digits digits = new Digits();
  private final InternedText text = new InternedText();
  private final RecordHeader header = new RecordHeader(digits);
  private final SchedPayloads payloads = new SchedPayloads(digits);
  private final TaskLines taskLines = new TaskLines(digits, text);
  private final StackFrames stackFrames;
  private final LineScanner scanner;

  private TraceEventSink sink;
  private int state;
  /** From the header lines of the current read; null while none was seen. */
  String hostName;

  String capturedOn;

  // The pending sample or switch (sent when its stack ends).
  private boolean pendingIsSwitch;
  private long pendingTime;
  private int pendingCpu;
  private int samplePid;
  private int sampleTid;
  private String sampleComm;
  private String sampleEvent;
  private long samplePeriod;
  private long switchPeriod;
  private int switchPrevPid;
  private int switchPrevTid;
  private String switchPrevComm;
  private String switchPrevState;
  private int switchNextTid;
  private String switchNextComm;
  private Frame[] frames = new Frame[128];
  private int frameCount;
  // The last stack line's range in the scanner's buffer, while the text has not moved (see
  // LineScanner#moves): a recursive call's line repeats the one before it.
  private int lastLineStart;
  private int lastLineEnd;
  private int lastLineMoves = -1;

  RecordAssembler(int maxFrames, Map<Frame, Frame> canonicalFrames, LineScanner scanner) {
    this.stackFrames = new StackFrames(maxFrames, canonicalFrames);
    this.scanner = scanner;
  }

  /** Starts a read that sends to {@code sink}. */
  void start(TraceEventSink sink) {
    this.sink = sink;
    state = NO_RECORD;
    hostName = null;
    capturedOn = null;
    header.reset();
    frameCount = 0;
  }

  /** Ends a read: the pending record is sent unless the read failed. */
  void finish(boolean sendPending) {
    if (sendPending) {
      finishRecord();
    }
  }

  /** Drops what the read held, whatever ended it. */
  void clear() {
    sink = null;
    sampleComm = null;
    sampleEvent = null;
    switchPrevComm = null;
    switchPrevState = null;
    switchNextComm = null;
    Arrays.fill(frames, 0, frameCount, null);
    frameCount = 0;
  }

  /** "fields", "plain", or "" before the first record header. */
  String layout() {
    return header.layout;
  }

  // ---------------------------------------------------------------- lines

  @Override
  public void line(char[] b, int s, int e) {
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

  @Override
  public void tooLong(char[] b, int s, int e) {
    endRecordAfterBadLine(b, s);
    sink.malformed(scanner.lineNumber(), "line too long", new String(b, s, e - s));
  }

  @Override
  public void cutShort(char[] b, int s, int e) {
    if (isBlank(b, s, e)) {
      finishRecord();
      state = NO_RECORD;
      return;
    }
    endRecordAfterBadLine(b, s); // sends the previous record first, to keep the order
    sink.malformed(scanner.lineNumber(), "truncated last line", new String(b, s, e - s));
  }

  /**
   * A record whose stack was followed by the start of a header line is complete, and is sent (as
   * {@link TraceParts} cuts a part before such a line); one whose stack may go on is not.
   */
  @Override
  public void stoppedWithin(char[] b, int s, int e) {
    if (e <= s || b[s] == '\t' || b[s] == '#') {
      return;
    }
    if (!isBlank(b, s, e) && !(e - s == 1 && b[s] == '\r')) {
      finishRecord();
    }
  }

  @Override
  public void damaged(long lineNumber, String damage) {
    sink.malformed(lineNumber, damage + ". Re-create the file", "");
  }

  /** After a line that is reported as bad: a pending sample is dropped. */
  private void endRecordAfterBadLine(char[] b, int start) {
    if (b[start] == '\t') {
      if (state == IN_STACK) {
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

  private void stackLine(char[] b, int s, int e) {
    switch (state) {
      case IN_STACK -> {
        if (frameCount > 0 && repeatsLastLine(b, s, e)) {
          addFrame(frames[frameCount - 1]);
          return;
        }
        Frame f = stackFrames.frame(b, s, e);
        lastLineStart = s;
        lastLineEnd = e;
        lastLineMoves = scanner.moves();
        if (f == null) {
          sink.malformed(scanner.lineNumber(), "bad stack line", new String(b, s, e - s));
          dropStack();
          state = SKIP_STACK;
        } else {
          addFrame(f);
        }
      }
      case NO_RECORD -> {
        sink.malformed(scanner.lineNumber(), "stack line outside a record",
            new String(b, s, e - s));
        state = IN_ORPHAN;
      }
      default -> {
        // SKIP_STACK, IN_ORPHAN: part of a record already sent or already reported.
      }
    }
  }

  /**
   * Whether b[s, e) is the same text as the stack line before it, which is still in the buffer
   * (the frame before it in this stack was parsed from it, or repeated it).
   */
  private boolean repeatsLastLine(char[] b, int s, int e) {
    int n = lastLineEnd - lastLineStart;
    return e - s == n && lastLineMoves == scanner.moves()
        && Arrays.equals(b, s, e, b, lastLineStart, lastLineEnd);
  }

  private void addFrame(Frame f) {
    if (frameCount == frames.length) {
      frames = Arrays.copyOf(frames, frameCount * 2);
    }
    frames[frameCount++] = f;
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
    if (state == IN_STACK) {
      state = NO_RECORD;
      sendPending();
    }
  }

  private void sendPending() {
    Frame[] stack = frameCount == 0 ? NO_FRAMES : Arrays.copyOf(frames, frameCount);
    frameCount = 0;
    if (pendingIsSwitch) {
      sink.schedSwitch(pendingTime, pendingCpu, switchPeriod, switchPrevPid, switchPrevTid,
          switchPrevComm, switchPrevState, switchNextTid, switchNextComm, stack);
    } else {
      sink.sample(pendingTime, pendingCpu, samplePid, sampleTid, sampleComm, sampleEvent,
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
    RecordHeader h = header;
    int p = h.parse(b, s, e);
    if (p < 0) {
      bad(b, s, e, h.failure);
      return;
    }
    p = skipBlanks(b, p, e);
    if (startsWith(b, p, e, TaskLines.PREFIX)) {
      state = NO_RECORD; // task lines have no stack
      String failure = taskLines.send(b, s, e, p, h, sink);
      if (failure != null) {
        bad(b, s, e, failure);
      }
      return;
    }
    long period = 1; // tracepoints in the plain layout print no period
    if (p < e && isDigit(b[p])) {
      period = digits.unsigned(b, p, e);
      if (period >= 0 && digits.end == e) {
        bad(b, s, e, "missing event name");
        return;
      }
      if (period < 0 || b[digits.end] != ' ') {
        bad(b, s, e, "bad period");
        return;
      }
      p = skipBlanks(b, digits.end, e);
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
    String event = text.of(b, p, colon);
    if (event.equals(SWITCH)) {
      schedSwitch(b, s, e, period, payload, payloadEnd);
    } else if (event.equals(WAKEUP) || event.equals(WAKEUP_NEW) || event.equals(WAKING)) {
      schedWakeup(b, s, e, payload, payloadEnd);
    } else if (payload == payloadEnd || StackFrames.startsWithAddress(b, payload, payloadEnd)) {
      pendingTime = h.time;
      pendingCpu = h.cpu;
      samplePid = h.pid;
      sampleTid = h.tid;
      sampleComm = text.of(b, skipBlanks(b, s, h.commEnd), h.commEnd);
      sampleEvent = event;
      samplePeriod = period;
      pendingIsSwitch = false;
      frameCount = 0;
      state = IN_STACK;
      if (payload < payloadEnd) {
        // Recorded without -g, perf prints the sample's one frame on the header line.
        stackLine(b, payload, payloadEnd);
      }
    } else {
      sink.ignored(event);
      state = SKIP_STACK;
    }
  }

  private void bad(char[] b, int s, int e, String reason) {
    sink.malformed(scanner.lineNumber(), reason, new String(b, s, e - s));
    state = SKIP_STACK; // its stack lines are part of this one bad record
  }

  private void schedSwitch(char[] b, int s, int e, long period, int p, int pe) {
    if (header.cpu == TraceEventSink.UNKNOWN_ID) {
      bad(b, s, e, "sched_switch without a [cpu] column (add cpu to perf script -F)");
      return;
    }
    SchedPayloads sw = payloads;
    String failure = sw.parseSwitch(b, p, pe);
    if (failure != null) {
      bad(b, s, e, failure);
      return;
    }
    // Sent when its stack (the switched-out thread's call chain) ends.
    pendingTime = header.time;
    pendingCpu = header.cpu;
    switchPeriod = period;
    switchPrevPid = header.pid;
    switchPrevTid = toId(sw.prevTid);
    switchPrevComm = text.of(b, sw.prevCommStart, sw.prevCommEnd);
    switchPrevState = text.of(b, sw.prevStateStart, sw.prevStateEnd);
    switchNextTid = toId(sw.nextTid);
    switchNextComm = text.of(b, sw.nextCommStart, sw.nextCommEnd);
    pendingIsSwitch = true;
    frameCount = 0;
    state = IN_STACK;
  }

  private void schedWakeup(char[] b, int s, int e, int p, int pe) {
    SchedPayloads w = payloads;
    String failure = w.parseWakeup(b, p, pe);
    if (failure != null) {
      bad(b, s, e, failure);
      return;
    }
    RecordHeader h = header;
    sink.schedWakeup(h.time, h.cpu, h.pid, h.tid, toId(w.wakeTid),
        text.of(b, w.wakeCommStart, w.wakeCommEnd), w.targetCpu);
    state = SKIP_STACK;
  }
}
