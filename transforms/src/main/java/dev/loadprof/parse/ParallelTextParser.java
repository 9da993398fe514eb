package dev.loadprof.parse;

import dev.loadprof.model.Failures;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.model.TraceReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one perf script trace on several threads, so that one big trace uses all cores. The text
 * is cut into parts at record boundaries ({@link TraceParts}); worker threads parse the parts in
 * parallel, each into a list of events; this thread hands the lists to the sink in the trace's
 * order. So the sink sees exactly the calls of a {@link PerfScriptParser} reading the whole trace,
 * with the same line numbers: the thread table, the per-CPU chains and the damage accounting after
 * it stay one ordered pass, and only the text work (lines, numbers, frames) is spread.
 *
 * <p>Memory is bounded by the parts in flight: about {@code 2 x threads} parts of {@code
 * partBytes} and their events. With one thread it is a plain {@link PerfScriptParser}.
 */
public final class ParallelTextParser implements TraceReader {
  /** Parts of about this many bytes: small enough to spread, large enough to be cheap to hand. */
  public static final int DEFAULT_PART_BYTES = 1 << 20;

  /** Without a header line within this many bytes, the rest is read by one parser. */
  static final int MAX_PART_BYTES = 64 << 20;

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final int threads;
  private final int partBytes;
  private final int maxPartBytes;

  // What the last read found, as PerfScriptParser tells it.
  private long lines;
  private String hostName;
  private String capturedOn;

  /** A reader with {@code threads} parsing threads (1: no threads of its own). */
  public ParallelTextParser(int threads) {
    this(threads, DEFAULT_PART_BYTES, MAX_PART_BYTES);
  }

  /** For tests: parts of {@code partBytes}, one parser for the rest beyond {@code maxPartBytes}. */
  ParallelTextParser(int threads, int partBytes, int maxPartBytes) {
    this.threads = Math.max(1, threads);
    this.partBytes = partBytes;
    this.maxPartBytes = maxPartBytes;
  }

  /** Number of lines of the last read, also after a read that failed. */
  public long lineCount() {
    return lines;
  }

  @Override
  public void describeRun(RunInfo run) {
    run.host = hostName == null ? "" : hostName;
    run.capturedOn = capturedOn == null ? "" : capturedOn;
    run.health.add(TraceHealth.LINES, lines);
  }

  @Override
  public void read(InputStream in, String sourceName, TraceEventSink sink) throws IOException {
    lines = 0;
    hostName = null;
    capturedOn = null;
    InputStream text = TraceFiles.open(in);
    if (threads == 1) {
      readRest(new PerfScriptParser(), text, text, sink);
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
      Thread t = new Thread(task, "loadprof-parse-" + POOLS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    BlockingQueue<PerfScriptParser> parsers = new ArrayBlockingQueue<>(threads);
    ConcurrentHashMap<Frame, Frame> frames = new ConcurrentHashMap<>();
    for (int i = 0; i < threads; i++) {
      parsers.add(new PerfScriptParser(frames));
    }
    Deque<Future<Parsed>> inFlight = new ArrayDeque<>();
    TraceParts parts = new TraceParts(text, partBytes, maxPartBytes);
    try {
      for (TraceParts.Part part; (part = parts.next()) != null; ) {
        if (part.kind() == TraceParts.Kind.REST) {
          while (!inFlight.isEmpty()) {
            handOver(inFlight.poll(), sink);
          }
          InputStream rest = new SequenceInputStream(
              new ByteArrayInputStream(part.bytes(), 0, part.length()), text);
          readRest(parsers.take(), rest, text, sink);
          return;
        }
        TraceParts.Part p = part;
        inFlight.add(pool.submit(() -> parse(p, parsers, text, parts)));
        while (inFlight.size() > 2 * threads) {
          handOver(inFlight.poll(), sink);
        }
      }
      while (!inFlight.isEmpty()) {
        handOver(inFlight.poll(), sink);
      }
      if (parts.failure() != null) {
        throw parts.failure();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while parsing " + sourceName, e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Reads text that is decoded already (CPU pieces merged by time) on this thread. */
  public void read(Reader text, TraceEventSink sink) throws IOException {
    lines = 0;
    hostName = null;
    capturedOn = null;
    PerfScriptParser parser = new PerfScriptParser();
    try {
      parser.readPart(text, sink, 0, PartEnd.END, () -> null);
    } finally {
      lines = parser.lineCount();
      noteHeaders(parser.hostNameIfSeen(), parser.capturedOnIfSeen());
    }
  }

  /** One part's events and what its lines said. */
  private record Parsed(RecordedEvents events, long lines, String hostName, String capturedOn) {}

  private static Parsed parse(TraceParts.Part part, BlockingQueue<PerfScriptParser> parsers,
      InputStream text, TraceParts parts) throws IOException, InterruptedException {
    PerfScriptParser parser = parsers.take();
    try {
      RecordedEvents events = new RecordedEvents();
      // The decoder replaces bad UTF-8 with U+FFFD, as PerfScriptParser#read does.
      parser.readPart(new InputStreamReader(
              new ByteArrayInputStream(part.bytes(), 0, part.length()), StandardCharsets.UTF_8),
          events, 0, part.kind().partEnd(), () -> TraceFiles.damage(text));
      parts.recycle(part); // its events hold no reference to its bytes
      return new Parsed(events, parser.lineCount(), parser.hostNameIfSeen(),
          parser.capturedOnIfSeen());
    } finally {
      parsers.add(parser);
    }
  }

  private void handOver(Future<Parsed> next, TraceEventSink sink)
      throws IOException, InterruptedException {
    Parsed part;
    try {
      part = next.get();
    } catch (ExecutionException e) {
      throw Failures.asIOException(e.getCause());
    }
    part.events().replay(sink, lines);
    lines += part.lines();
    noteHeaders(part.hostName(), part.capturedOn());
  }

  /**
   * The rest of a trace, read by one parser straight into the sink; {@code text} is the trace's
   * stream from {@link TraceFiles#open}, which knows how it ended.
   */
  private void readRest(PerfScriptParser parser, InputStream rest, InputStream text,
      TraceEventSink sink) throws IOException {
    long before = lines;
    try {
      parser.readPart(new InputStreamReader(rest, StandardCharsets.UTF_8), sink, before,
          PartEnd.END, () -> TraceFiles.damage(text));
    } finally {
      lines = parser.lineCount();
      noteHeaders(parser.hostNameIfSeen(), parser.capturedOnIfSeen());
    }
  }

  /** Header lines of a later part override earlier ones, as in one read. */
  private void noteHeaders(String host, String captured) {
    if (host != null) {
      hostName = host;
    }
    if (captured != null) {
      capturedOn = captured;
    }
  }
}
