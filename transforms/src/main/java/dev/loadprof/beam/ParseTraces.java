package dev.loadprof.beam;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.block.UnusablePolicy;
import dev.loadprof.model.EventBlock;
import dev.loadprof.archive.NightRule;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.report.Printable;
import dev.loadprof.parse.LocalInputs;
import dev.loadprof.parse.ParallelTextParser;
import dev.loadprof.parse.RunIds;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.perfdata.BuildIds;
import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.PieceTask;
import dev.loadprof.perfdata.PieceTexts;
import dev.loadprof.perfdata.reader.NativePerfDataReader;
import dev.loadprof.perfdata.reader.PerfDataReading;
import dev.loadprof.perfdata.reader.UndatedLosses;
import dev.loadprof.perfdata.symbols.SymbolSources;
import dev.loadprof.progress.JobProgress;
import java.io.Reader;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.values.KV;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipException;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads traces (one file is one run: perf script text, plain or compressed, stdin, a pipe, or a
 * perf.data file) into blocks of events per (run, lane, window), plus one {@link RunInfo} per
 * run. A perf.data file is first decoded in parallel pieces ({@link DecodePerfData}). The text of
 * a run is parsed by one worker: its parts on several threads ({@link ParallelTextParser}), their
 * events handed on in the trace's order, since the thread table and carry-in need one ordered
 * pass. Everything after this step is parallel over blocks.
 */
public final class ParseTraces extends PTransform<PCollection<String>, PCollectionTuple> {
  public static final TupleTag<EventBlock> BLOCKS = new TupleTag<>("blocks") {};
  public static final TupleTag<RunInfo> RUNS = new TupleTag<>("runs") {};

  /** perf.data is decoded by this many perf script processes (time slices) unless told. */
  public static final int DEFAULT_DECODE_PIECES =
      Math.max(1, Runtime.getRuntime().availableProcessors());

  /** The text of one trace is parsed on this many threads unless told. */
  public static final int DEFAULT_PARSE_THREADS =
      Math.max(1, Runtime.getRuntime().availableProcessors());

  private final long windowNs;
  private final String samplingEvent;
  private final int decodePieces;
  private final DecodePiece.Kind splitBy;
  private final int parseThreads;
  private final PerfDataReading perfDataReading;
  private boolean logWarnings;
  /** The run id of each trace and the traces counted as another; null: each file its own. */
  private TraceRuns traceRuns;

  /**
   * @param windowNs length of a time window
   * @param samplingEvent event to profile, or null for the first sampling event in each trace
   */
  public ParseTraces(long windowNs, String samplingEvent) {
    this(windowNs, samplingEvent, DEFAULT_DECODE_PIECES, DecodePiece.Kind.TIME,
        DEFAULT_PARSE_THREADS, PerfDataReading.AUTO);
  }

  /**
   * The same, decoding each perf.data input in {@code decodePieces} pieces cut by {@code splitBy}
   * (CPU or TIME), and parsing the text of each trace on {@code parseThreads} threads; perf.data
   * is read as {@code perfDataReading} says.
   */
  public ParseTraces(long windowNs, String samplingEvent, int decodePieces,
      DecodePiece.Kind splitBy, int parseThreads, PerfDataReading perfDataReading) {
    this.windowNs = windowNs;
    this.samplingEvent = samplingEvent;
    this.decodePieces = decodePieces;
    this.splitBy = splitBy;
    this.parseThreads = parseThreads;
    this.perfDataReading = perfDataReading;
  }

  /**
   * Also logs each run's warnings and unusable reason as it is read: for jobs with no closing
   * summary of them (archive). analyze, compare and nightly say each one once at the end, from
   * the runs' infos, which on a cluster is the only place the user sees.
   */
  public ParseTraces withWarningsLogged() {
    ParseTraces t = copy();
    t.logWarnings = true;
    return t;
  }

  /**
   * Names each trace as {@code runs} says (unique in the job), and reads a trace with the same
   * bytes as another not at all: its run is {@link TraceRuns#excludedRun}, without events.
   */
  public ParseTraces withRuns(TraceRuns runs) {
    ParseTraces t = copy();
    t.traceRuns = runs;
    return t;
  }

  private ParseTraces copy() {
    ParseTraces t = new ParseTraces(windowNs, samplingEvent, decodePieces, splitBy, parseThreads,
        perfDataReading);
    t.logWarnings = logWarnings;
    t.traceRuns = traceRuns;
    return t;
  }

  @Override
  public PCollectionTuple expand(PCollection<String> paths) {
    TraceRuns runs = traceRuns != null ? traceRuns : TraceRuns.named(List.of());
    PCollectionTuple out = paths
        .apply("Leave out traces counted as another",
            Filter.by((String path) -> runs.sameAs(path) == null))
        .apply("Decode perf.data", new DecodePerfData(decodePieces, splitBy, perfDataReading))
        .apply("Parse perf script into blocks", ParDo.of(new ParseFn(windowNs, samplingEvent,
            parseThreads, logWarnings, runs))
            .withOutputTags(BLOCKS, TupleTagList.of(RUNS)));
    out.get(BLOCKS).setCoder(EventBlockCoder.of());
    PCollection<RunInfo> notCounted = paths
        .apply("Traces counted as another", Filter.by((String path) -> runs.sameAs(path) != null))
        .apply("Their runs", MapElements.into(TypeDescriptor.of(RunInfo.class))
            .via((String path) -> runs.excludedRun(path)))
        .setCoder(RunInfoCoder.of());
    PCollection<RunInfo> all = PCollectionList.of(out.get(RUNS).setCoder(RunInfoCoder.of()))
        .and(notCounted).apply("All runs", Flatten.pCollections());
    return PCollectionTuple.of(BLOCKS, out.get(BLOCKS)).and(RUNS, all);
  }

  /**
   * Reads one input as this step does, without a runner: its perf.data pieces (if perf script
   * decodes it) decoded on parallel threads, then its blocks handed to {@code blocks} in the
   * trace's order; returns its run's info. {@code windowsComplete} (or null) hears, as the
   * trace is read, each window before which no more blocks will come.
   */
  public RunInfo readLocally(String path, Consumer<EventBlock> blocks,
      LongConsumer windowsComplete) throws IOException {
    TraceRuns runs = traceRuns != null ? traceRuns : TraceRuns.named(List.of());
    if (runs.sameAs(path) != null) {
      return runs.excludedRun(path); // its bytes are read as the other run's
    }
    List<PieceTask> planned = DecodePerfData.plan(path, decodePieces, splitBy, perfDataReading);
    List<PieceTask> pieces = LocalDecode.all(planned, task -> DecodePerfData.decode(path, task));
    return ParseFn.read(path, runs.runId(path), pieces, windowNs, samplingEvent, parseThreads,
        logWarnings, blocks, windowsComplete);
  }

  /** The run of a trace that could not be read at all ({@link TraceRuns#unreadableRun}). */
  public RunInfo unreadableRun(String path, String why) {
    return (traceRuns != null ? traceRuns : TraceRuns.named(List.of())).unreadableRun(path, why);
  }

  /**
   * The run id of a trace file on its own ({@link RunIds#of(String)}); in a job of several
   * traces, {@link TraceRuns} makes each unique.
   */
  public static String runIdOf(String path) {
    return RunIds.of(path);
  }

  static final class ParseFn extends DoFn<KV<String, Iterable<PieceTask>>, EventBlock> {
    private static final Logger LOG = LoggerFactory.getLogger(ParseTraces.class);
    private static final long PROGRESS_EVERY_NS = 5_000_000_000L;
    private final long windowNs;
    private final String samplingEvent;
    private final int parseThreads;
    private final boolean logWarnings;
    private final TraceRuns runs;

    ParseFn(long windowNs, String samplingEvent, int parseThreads, boolean logWarnings,
        TraceRuns runs) {
      this.runs = runs;
      this.logWarnings = logWarnings;
      this.windowNs = windowNs;
      this.samplingEvent = samplingEvent;
      this.parseThreads = parseThreads;
    }

    @ProcessElement
    public void process(@Element KV<String, Iterable<PieceTask>> input, MultiOutputReceiver out)
        throws IOException {
      List<PieceTask> pieces = new ArrayList<>();
      input.getValue().forEach(pieces::add);
      RunInfo info = read(input.getKey(), runs.runId(input.getKey()), pieces, windowNs,
          samplingEvent, parseThreads, logWarnings, block -> out.get(BLOCKS).output(block), null);
      for (Map.Entry<String, Long> e : info.health.counters().entrySet()) {
        Metrics.counter("loadprof", e.getKey()).inc(e.getValue());
      }
      Metrics.counter("loadprof", "runs").inc();
      if (info.isUnusable()) {
        Metrics.counter("loadprof", "unusable_runs").inc();
      }
      out.get(RUNS).output(info);
    }

    /**
     * Reads one input's pieces into blocks, handed to {@code blocks} in the trace's order, and
     * returns its run's info: this step's work for one input, which needs no runner.
     */
    static RunInfo read(String path, String runId, List<PieceTask> pieces, long windowNs,
        String samplingEvent, int parseThreads, boolean logWarnings, Consumer<EventBlock> blocks,
        LongConsumer windowsComplete) throws IOException {
      return read(path, runId, pieces, windowNs, samplingEvent, parseThreads, logWarnings,
          blocks, windowsComplete, SymbolSources.live());
    }

    /** {@link #read} with the frames symbolized from {@code symbols} (tests: none). */
    static RunInfo read(String path, String runId, List<PieceTask> pieces, long windowNs,
        String samplingEvent, int parseThreads, boolean logWarnings, Consumer<EventBlock> blocks,
        LongConsumer windowsComplete, SymbolSources symbols) throws IOException {
      ParallelTextParser parser = new ParallelTextParser(parseThreads);
      BlockBuilder builder = new BlockBuilder(runId, path, windowNs, samplingEvent,
          block -> {
            JobProgress.expect(JobProgress.Stage.JOINING, 1);
            blocks.accept(block);
          });
      if (windowsComplete != null) {
        builder.onWindowsComplete(windowsComplete);
      }
      TreeMap<String, String> buildIds = new TreeMap<>();
      NativePerfDataReader nativeReader = null;
      String capturedOn = "";
      try {
        if (pieces.get(0).piece().kind() == DecodePiece.Kind.NATIVE) {
          builder.decodedFromPerfData();
          NativePerfDataReader reader =
              NativePerfDataReader.open(Path.of(path), symbols);
          reader.read(builder);
          buildIds = reader.buildIds();
          nativeReader = reader;
        } else if (pieces.get(0).isPerfData()) {
          builder.decodedFromPerfData();
          readPieces(path, pieces, parser, builder);
          builder.lost(0, UndatedLosses.of(Path.of(path))); // perf script never prints them
          buildIds = BuildIds.read(Path.of(path));
          capturedOn = NativePerfDataReader.capturedOn(Path.of(path));
        } else {
          nativeReader = readText(path, parser, builder);
          if (nativeReader != null) {
            buildIds = nativeReader.buildIds();
          }
        }
      } catch (EOFException | ZipException e) {
        // A cut or damaged .gz: keep what was read, and say loudly where the input ended.
        builder.malformed(parser.lineCount() + 1, "the input ends early (" + e.getMessage()
            + "): the file is truncated or corrupt; everything before this line was analyzed."
            + " Re-create the file", "");
      } finally {
        PieceTexts.delete(pieces);
      }
      RunInfo info = builder.finish();
      info.buildIds = buildIds;
      if (nativeReader != null) {
        nativeReader.describeRun(info);
        UnusablePolicy.judgeUnreadData(info); // what the reader could not read, measured
      } else {
        parser.describeRun(info);
        if (info.capturedOn.isEmpty()) {
          info.capturedOn = capturedOn; // perf script printed no header
        }
      }
      NightRule.decide(info, modifiedMillis(path), NightRule.today());
      if (logWarnings) {
        for (String warning : info.warnings) { // the unusable reason is the first
          LOG.warn(Printable.escape(warning));
        }
      }
      if (!JobProgress.isDrawnOnTerminal()) { // there the progress line says what is read
        LOG.info("{}: {} sample records ({}), {} switch records, {} malformed lines", path,
            info.health.get(TraceHealth.SAMPLE_RECORDS), info.samplingEvent,
            info.health.get(TraceHealth.SWITCH_RECORDS),
            info.health.get(TraceHealth.MALFORMED_LINES));
      }
      return info;
    }

    /** When the trace file was last modified (the night rule's last resort); 0 if unknown. */
    private static long modifiedMillis(String path) {
      try {
        return org.apache.beam.sdk.io.FileSystems.matchSingleFileSpec(path).lastModifiedMillis();
      } catch (IOException | RuntimeException e) {
        return 0;
      }
    }

    /** Reads the text of a perf.data file's decoded pieces. */
    private static void readPieces(String path, List<PieceTask> pieces,
        ParallelTextParser parser, BlockBuilder builder) throws IOException {
      InputStream slices = PieceTexts.openTimeSlices(pieces);
      if (slices != null) {
        long size = 0;
        for (PieceTask piece : pieces) {
          size += Path.of(piece.decodedFile()).toFile().length();
        }
        try (InputStream text = new TextCount(new ProgressStream(slices, path, size))) {
          parser.read(text, path, builder);
        }
        return;
      }
      try (Reader text = PieceTexts.open(pieces)) { // CPU pieces, merged by time
        parser.read(text, builder);
      }
    }

    /**
     * Reads a text trace (plain or compressed) from a file, stdin or a pipe; or a pipe-mode
     * perf.data stream there ({@code perf record -o - | loadprof analyze -}), with the native
     * reader, returned for the run's description (null for text).
     */
    private static NativePerfDataReader readText(String path, ParallelTextParser parser,
        BlockBuilder builder) throws IOException {
      boolean stream = TraceFiles.isStream(path);
      InputStream raw;
      long size = 0;
      try {
        if (stream) {
          raw = TraceFiles.openStream(path);
        } else {
          MatchResult.Metadata file = FileSystems.matchSingleFileSpec(path);
          raw = Channels.newInputStream(FileSystems.open(file.resourceId()));
          size = file.sizeBytes();
        }
      } catch (IOException e) {
        throw LocalInputs.unreadable(path, e); // a file this user may not read: bad input
      }
      try (ProgressStream counted = new ProgressStream(raw, path, size);
          InputStream text = new TextCount(TraceFiles.open(counted))) {
        if (TraceFiles.isPerfData(text)) {
          builder.decodedFromPerfData();
          return PerfDataStreams.read(path, text, builder);
        }
        parser.read(text, path, builder);
        return null;
      } finally {
        if (stream) {
          // A writer still writing (perf record -o -) must not be killed by SIGPIPE when the
          // read stopped early: refused, damaged or failed, the rest is read and dropped.
          PerfDataStreams.drain(raw);
        }
      }
    }

    /** Counts the bytes of text read, decompressed: the reading's figure on the console. */
    private static final class TextCount extends FilterInputStream {
      TextCount(InputStream in) {
        super(in);
      }

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          JobProgress.advanceText(1);
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n > 0) {
          JobProgress.advanceText(n);
        }
        return n;
      }
    }

    /**
     * Counts compressed bytes read, for the console's progress line ({@link JobProgress}) and,
     * where no console speaks for the job (a cluster's workers), the log's progress lines on long
     * inputs.
     */
    private static final class ProgressStream extends FilterInputStream {
      private final String name;
      private final long size;
      private long read;
      private long lastReportNs = System.nanoTime();

      ProgressStream(InputStream in, String name, long size) {
        super(in);
        this.name = name;
        this.size = size;
        JobProgress.addTotal(JobProgress.Stage.READING, size);
      }

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          advance(1);
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n > 0) {
          advance(n);
        }
        return n;
      }

      private void advance(int n) {
        read += n;
        JobProgress.advance(JobProgress.Stage.READING, n);
        long now = System.nanoTime();
        if (now - lastReportNs > PROGRESS_EVERY_NS && !JobProgress.isShownOnConsole()) {
          lastReportNs = now;
          LOG.info("{}: read {} of {} MB ({}%)", name, read >> 20, size >> 20,
              size > 0 ? read * 100 / size : 0);
        }
      }
    }
  }
}
