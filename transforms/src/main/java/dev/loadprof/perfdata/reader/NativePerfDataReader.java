package dev.loadprof.perfdata.reader;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.perfdata.PerfDataHeader;
import dev.loadprof.perfdata.symbols.SymbolSources;
import dev.loadprof.perfdata.symbols.Symbolizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a perf.data file without perf: sends its events to a {@link TraceEventSink} exactly as
 * {@code perf script} text read by the text parser would (same order, same fields), so everything
 * downstream is the same whichever way a recording was decoded. Frames are symbolized by a
 * {@link Symbolizer} fed from the file's MMAP records.
 *
 * <p>It reads files written to a file and in pipe mode ({@code perf record -o -}), saved or
 * live on a stream, with records compressed ({@code perf record -z}) or not. What it does not
 * decode (big-endian, AUX data, an unknown tracepoint format, DWARF call graphs) is refused by
 * {@link #open} with an {@link UnsupportedPerfDataException} before any event is sent, so the
 * caller can decode that file with perf script instead.
 */
public final class NativePerfDataReader {
  private static final int FINISHED_ROUND = 68;
  /**
   * Decoding threads per read at most: the sink takes the events on one thread, and a runner
   * may read several files at once.
   */
  private static final int MAX_THREADS = 4;

  /** Opens the records of the data, from the first after the header on. */
  private interface Records {
    RecordSource open() throws IOException;
  }

  private final PerfDataFile file;
  private final SchedRecords sched;
  private final SymbolSources symbols;
  private final Records source;
  private long records;
  private long throttledNs;
  private UnreadData unread = new UnreadData(0);

  private NativePerfDataReader(PerfDataFile file, SymbolSources symbols, Records source)
      throws IOException {
    refuseDwarfCallGraphs(file);
    this.file = file;
    this.sched = new SchedRecords(file);
    this.symbols = symbols;
    this.source = source;
  }

  /**
   * perf record --call-graph dwarf: the callchains hold no user-space frames, which must be
   * unwound from each sample's copy of the stack with each object's .eh_frame/.debug_frame.
   * perf script does it (inlined functions included), at a cost measured in bench/RESULTS.md;
   * read here, such a file would give a profile without the program's frames.
   */
  private static void refuseDwarfCallGraphs(PerfDataFile file) throws UnsupportedPerfDataException {
    for (EventAttr attr : file.attrs) {
      if (attr.dwarfCallGraph()) {
        throw new UnsupportedPerfDataException("its call graphs were recorded with"
            + " --call-graph dwarf (" + attr.name() + "), whose user-space frames must be"
            + " unwound from each sample's copy of the stack, which perf script does");
      }
    }
  }

  /**
   * Reads the file's header (a file's, or the header records of a file written in pipe mode);
   * throws {@link UnsupportedPerfDataException} if perf script must read it.
   */
  public static NativePerfDataReader open(Path perfData, SymbolSources symbols)
      throws IOException {
    if (!PipeRecords.isPipeMode(perfData)) {
      PerfDataFile file = PerfDataFile.open(perfData);
      return new NativePerfDataReader(file, symbols, () -> new RecordStream(
          FileChannel.open(file.path, StandardOpenOption.READ), file.dataOffset, file.dataSize));
    }
    PerfDataFile file = new PerfDataFile(perfData);
    long dataStart;
    try (InputStream in = Files.newInputStream(perfData)) {
      dataStart = PipeRecords.open(in, file).dataStart();
    } catch (UnsupportedPerfDataException e) {
      throw e;
    } catch (IOException | RuntimeException e) { // header records that are no records
      throw new DamagedHeaderException(-1, "its pipe-mode header records are damaged ("
          + e.getMessage() + ")");
    }
    file.dataSize = Files.size(perfData) - dataStart;
    return new NativePerfDataReader(file, symbols,
        () -> PipeRecords.resume(perfData, file, dataStart));
  }

  /**
   * Reads the header records of a pipe-mode stream ({@code perf record -o -}) called
   * {@code name}, from {@code pipe}; {@link #read} then reads its records from it, once, as they
   * come. Throws {@link UnsupportedPerfDataException} for what the native reader cannot decode:
   * the stream is then read no further (its writer still writes; the caller must read it to its
   * end, or the writer is killed by SIGPIPE).
   */
  public static NativePerfDataReader open(InputStream pipe, String name, SymbolSources symbols)
      throws IOException {
    PerfDataFile file = new PerfDataFile(Path.of(name));
    PipeRecords records = PipeRecords.open(pipe, file);
    boolean[] read = {false};
    return new NativePerfDataReader(file, symbols, () -> {
      if (read[0]) {
        throw new IOException(name + ": a stream is read once");
      }
      read[0] = true;
      return records;
    });
  }

  /** True when {@code perfData} was written in pipe mode ({@code perf record -o - > file}). */
  public static boolean isPipeMode(Path perfData) throws IOException {
    return PipeRecords.isPipeMode(perfData);
  }

  /** Why the native reader cannot read this file, or null when it can. */
  public static String unsupportedReason(Path perfData) {
    try {
      open(perfData, SymbolSources.live());
      return null;
    } catch (UnsupportedPerfDataException e) {
      return e.getMessage();
    } catch (IOException e) {
      return "its header could not be read (" + e.getMessage() + ")";
    }
  }

  /** What the pipeline's planning needs to know of the recording, as perf's header says it. */
  public PerfDataHeader header() {
    boolean cpu = false;
    boolean tracepoints = false;
    for (EventAttr attr : file.attrs) {
      cpu |= attr.has(EventAttr.SAMPLE_CPU);
      tracepoints |= attr.isTracepoint();
    }
    return new PerfDataHeader(cpu, tracepoints, file.cpus, 0, 0);
  }

  /**
   * Sends every event of the file to {@code sink}, in perf script's order, its samples decoded
   * on all cores (up to four). A damaged record is reported as malformed, naming its byte
   * offset, and measured (the run's health says how much could not be read, {@link
   * #describeRun}); reading goes on after it.
   */
  public void read(TraceEventSink sink) throws IOException {
    read(sink, Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * {@link #read(TraceEventSink)} with samples decoded on {@code threads} threads (1: all on
   * this one). The sink is called on this thread only, with the same events in the same order
   * whatever the number of threads.
   */
  public void read(TraceEventSink sink, int threads) throws IOException {
    read(sink, threads, ParallelSamples.BATCH_EVENTS);
  }

  /** {@link #read(TraceEventSink, int)} in batches of {@code batchEvents} events (tests). */
  void read(TraceEventSink sink, int threads, int batchEvents) throws IOException {
    try (Symbolizer symbolizer = new Symbolizer(symbols)) {
      RecordDispatcher dispatcher =
          new RecordDispatcher(file, new RecordFields(file.attrs, file.attrById), symbolizer);
      if (threads <= 1) {
        dispatcher.start(sink, new SampleDecoder(file, sched, symbolizer));
        readRecords(dispatcher, sink);
        return;
      }
      try (ParallelSamples parallel = new ParallelSamples(threads, batchEvents,
          () -> decoder(symbolizer))) {
        dispatcher.start(parallel.events(), parallel.samples());
        Thread producer = new Thread(
            () -> parallel.produce(() -> readRecords(dispatcher, parallel.events())),
            "loadprof-perfdata-records");
        producer.setDaemon(true);
        producer.start();
        try {
          parallel.deliver(sink);
        } finally {
          producer.interrupt(); // ended already, unless the sink or a decoder failed
          joinQuietly(producer);
        }
      }
    }
  }

  private SampleDecoder decoder(Symbolizer symbolizer) {
    try {
      return new SampleDecoder(file, new SchedRecords(file), symbolizer);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // the same formats were read by open
    }
  }

  private static void joinQuietly(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Reads the records in perf's order (sorted by time within FINISHED_ROUND limits) and hands
   * each to {@code dispatcher}. A damaged record (a header or fields that do not hold) is
   * reported to {@code sink} and measured in {@link #unread}; reading goes on where well-formed
   * records follow again, so what could not be read is known to the byte.
   */
  private void readRecords(RecordDispatcher dispatcher, TraceEventSink sink) throws IOException {
    RecordFields fields = new RecordFields(file.attrs, file.attrById);
    unread = new UnreadData(file.dataSize);
    try (RecordSource stream = new CompressedRecords(source.open())) {
      OrderedRecords ordered = new OrderedRecords();
      OrderedRecords.Target target = (record, offset) -> {
        try {
          dispatcher.dispatch(record, offset);
        } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException
            | NegativeArraySizeException | IllegalArgumentException e) {
          damaged(sink, offset, offset + record.length, "it does not hold its own fields ("
              + e.getClass().getSimpleName() + ")");
        }
      };
      while (true) {
        byte[] record;
        try {
          record = stream.next();
        } catch (RecordStream.DamagedRecordException e) {
          if (damaged(sink, e.offset, stream.resync(e.offset), e.getMessage())) {
            continue;
          }
          break;
        } catch (IOException e) { // damage where reading cannot go on (a compressed stream)
          damaged(sink, stream.recordOffset(), RecordSource.UNKNOWN_END, e.getMessage());
          break;
        }
        if (record == null) {
          break;
        }
        records++;
        ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
        int type = b.getInt(0);
        long at = stream.recordOffset();
        if (!RecordStream.knownType(type)) {
          // No perf writes such a type: the bytes are not a record.
          if (damaged(sink, at, stream.resync(at), "a record of unknown type "
              + Integer.toUnsignedString(type))) {
            continue;
          }
          break;
        }
        if (type >= RecordFields.USER_TYPE_START && !fields.sizeFitsType(type, b)) {
          damaged(sink, at, at + record.length, fields.failure);
          continue;
        }
        if (type == FINISHED_ROUND) {
          ordered.finishRound(target);
          unread.read();
          continue;
        }
        if (type >= RecordFields.USER_TYPE_START) {
          unread.read();
          continue; // perf's own records (ids, maps, time conversion): nothing to send
        }
        long time;
        try {
          time = fields.orderTime(b);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
          damaged(sink, at, at + record.length, "its fields do not fit in it");
          continue;
        }
        if (fields.failure != null || (type != RecordFields.SAMPLE
            && !fields.sizeFitsType(type, b))) {
          damaged(sink, at, at + record.length, fields.failure);
          continue;
        }
        unread.read();
        if (time < 0) {
          target.record(record, at); // no time: at once, as perf does
        } else {
          ordered.add(time, record, at);
        }
      }
      ordered.finish(target);
      unread.dataBytes(file.dataSize); // a stream's is known at its end
      throttledNs = dispatcher.throttledNs;
    }
  }

  /**
   * Reports bytes {@code [from, to)} of the data as damaged, and measures them; false when
   * reading cannot go on ({@code to} is {@link RecordSource#UNKNOWN_END}).
   */
  private boolean damaged(TraceEventSink sink, long from, long to, String why) {
    boolean goesOn = to != RecordSource.UNKNOWN_END;
    long end = goesOn ? to : file.dataOffset + file.dataSize;
    unread.damaged(from, Math.max(from, end), why);
    sink.malformed(from, "perf.data record at byte " + from + ": " + why + ": "
        + (goesOn ? (to - from) + " bytes up to byte " + to : "the rest of the data")
        + " could not be read (the file is damaged)", "");
    return goesOn;
  }

  /**
   * The UTC date a perf.data file was recorded, from its header's CLOCK_DATA section (written by
   * perf record -k); "" when it has none or its header cannot be read.
   */
  public static String capturedOn(Path perfData) {
    try {
      return capturedOn(open(perfData, SymbolSources.live()).file);
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static String capturedOn(PerfDataFile f) {
    return f.wallClockNs <= 0 ? "" : java.time.Instant.ofEpochSecond(0, f.wallClockNs)
        .atZone(java.time.ZoneOffset.UTC).toLocalDate().toString();
  }

  /** The host name and capture date from the file's header, and what the read counted. */
  public void describeRun(RunInfo run) {
    if (!file.hostName.isEmpty()) {
      run.host = file.hostName;
    }
    if (run.capturedOn.isEmpty()) {
      run.capturedOn = capturedOn(file);
    }
    // The kernel throttles a sampling event until a later tick when its interrupts take too
    // long. The time from THROTTLE to UNTHROTTLE includes ticks a CPU spent idle (no samples were
    // due then), so it is no measure of samples missing: it is counted in the health only, as
    // the perf script path (which never prints THROTTLE) did not report it at all.
    if (throttledNs > 0) {
      run.health.add(TraceHealth.THROTTLED_NS, throttledNs);
    }
    unread.describe(run);
  }

  /** Object path to build id (hex), from the file's build-id section, as perf buildid-list. */
  public java.util.TreeMap<String, String> buildIds() {
    java.util.TreeMap<String, String> ids = new java.util.TreeMap<>();
    file.buildIds.forEach((path, id) -> ids.put(path, java.util.HexFormat.of().formatHex(id)));
    return ids;
  }

  /** Records read by the last {@link #read}. */
  public long records() {
    return records;
  }
}
