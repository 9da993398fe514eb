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
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reads the text of {@code perf script} and sends its records to a {@link TraceEventSink}.
 *
 * <p>Two layouts are understood, detected per line (see {@link RecordHeader}):
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
 * <p>The work is done by parts with one job each: {@link LineScanner} splits the text into lines,
 * {@link RecordAssembler} is the record state machine (and says how bad input is reported), and
 * it uses {@link RecordHeader}, {@link SchedPayloads}, {@link TaskLines} and {@link StackFrames}.
 *
 * <p>Performance: this is the hot path of the tool, so lines are scanned in place in a char
 * buffer (no String per line, no regex), and comms, event names and frames are interned through
 * {@link RangeInterner} tables looked up by char range, so identical frames share one {@link
 * Frame} instance. An instance is not thread-safe; use one per thread. It can read several traces
 * one after the other.
 */
public final class PerfScriptParser implements TraceReader {
  /** Layout names, as in RunInfo.layout. */
  public static final String LAYOUT_FIELDS = RecordHeader.LAYOUT_FIELDS;

  public static final String LAYOUT_PLAIN = RecordHeader.LAYOUT_PLAIN;

  /** Frame caches are cleared beyond this many entries, to bound memory on huge traces. */
  static final int DEFAULT_MAX_FRAMES = 1 << 20;

  /** Lines longer than this are reported as malformed and skipped, to bound memory. */
  static final int DEFAULT_MAX_LINE_CHARS = 16 << 20;

  private final LineScanner scanner;
  private final RecordAssembler records;
  /** The stream being read, which can tell whether its input ended early; or null. */
  private InputStream opened;

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
    this.scanner = new LineScanner(maxLineChars);
    this.records = new RecordAssembler(maxFrames, canonicalFrames, scanner);
  }

  /** The host name from a {@code # hostname : NAME} header line of the last read, or "". */
  public String hostName() {
    return records.hostName == null ? "" : records.hostName;
  }

  /** The host name of the last read's header lines, or null if they had none. */
  String hostNameIfSeen() {
    return records.hostName;
  }

  /** The capture date of the last read's header lines, or null if they had none. */
  String capturedOnIfSeen() {
    return records.capturedOn;
  }

  /**
   * "fields" if the last read's first record header had {@code pid/tid}, "plain" if it had only
   * a tid, "" if there was no record.
   */
  public String layout() {
    return records.layout();
  }

  /** Number of lines of the last read. */
  public long lineCount() {
    return scanner.lineNumber();
  }

  /** The host and capture date from the header, and the lines read, for the run's info. */
  @Override
  public void describeRun(RunInfo run) {
    run.host = hostName();
    run.capturedOn = records.capturedOn == null ? "" : records.capturedOn;
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

  /**
   * Reads one part of a trace, as if it followed the parts before it: its lines are numbered
   * after {@code linesBefore}, and a part other than the first starts at a record's header line.
   * {@code damage} tells, once the part is read, what ended the trace early (or null); it is asked
   * only for {@link PartEnd#END}.
   */
  void readPart(Reader reader, TraceEventSink sink, long linesBefore, PartEnd end,
      Supplier<String> damage) throws IOException {
    records.start(sink);
    try {
      scanner.read(reader, linesBefore, end, damage, records);
      records.finish(end != PartEnd.FAILED);
    } finally {
      records.clear();
    }
  }
}
