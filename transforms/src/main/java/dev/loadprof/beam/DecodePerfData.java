package dev.loadprof.beam;

import dev.loadprof.parse.TraceFiles;
import dev.loadprof.parse.UnreadableTraceException;
import dev.loadprof.perfdata.DamagedPerfDataException;
import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.PerfDataHeader;
import dev.loadprof.perfdata.PerfMissingException;
import dev.loadprof.perfdata.PerfScriptDecoder;
import dev.loadprof.perfdata.PieceTask;
import dev.loadprof.perfdata.reader.DamagedHeaderException;
import dev.loadprof.perfdata.reader.NativePerfDataReader;
import dev.loadprof.perfdata.reader.PerfDataReading;
import dev.loadprof.perfdata.reader.UnsupportedPerfDataException;
import dev.loadprof.perfdata.symbols.SymbolSources;
import dev.loadprof.progress.JobProgress;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns input paths into the pieces to parse, grouped per input: a text trace is one piece; a
 * perf.data file that the native reader can read is one piece that it reads (unless perf script
 * is asked for); another perf.data file is cut into pieces (per CPU or per time slice) that separate {@code perf script}
 * processes decode in parallel, on any worker, into local temporary files. The parse step reads
 * the pieces of one input back as one text.
 */
public final class DecodePerfData
    extends PTransform<PCollection<String>, PCollection<KV<String, Iterable<PieceTask>>>> {
  private final int pieces;
  private final DecodePiece.Kind splitBy;
  private final PerfDataReading reading;

  /**
   * @param pieces how many pieces to cut a perf.data file into (1: one perf script)
   * @param splitBy CPU or TIME
   * @param reading native reader, perf script, or the native reader with perf script's fallback
   */
  public DecodePerfData(int pieces, DecodePiece.Kind splitBy, PerfDataReading reading) {
    this.pieces = pieces;
    this.splitBy = splitBy;
    this.reading = reading;
  }

  @Override
  public PCollection<KV<String, Iterable<PieceTask>>> expand(PCollection<String> paths) {
    KvCoder<String, PieceTask> coder =
        KvCoder.of(StringUtf8Coder.of(), SerializableCoder.of(PieceTask.class));
    return paths
        .apply("Plan perf.data pieces", ParDo.of(new PlanFn(pieces, splitBy, reading))).setCoder(coder)
        .apply("Spread pieces over workers", Reshuffle.viaRandomKey())
        .apply("Decode pieces with perf script", ParDo.of(new DecodeFn())).setCoder(coder)
        .apply("Gather the pieces of each input", GroupByKey.create());
  }

  /** A perf.data file readable on this machine, or null (text, stream, remote path). */
  static Path localPerfData(String path) {
    if (TraceFiles.isStream(path) || path.contains("://")) {
      return null;
    }
    Path p = Paths.get(path);
    return Files.isRegularFile(p) && TraceFiles.isPerfDataFile(p) ? p : null;
  }

  private static final Logger LOG = LoggerFactory.getLogger(DecodePerfData.class);

  static final class PlanFn extends DoFn<String, KV<String, PieceTask>> {
    private final int pieces;
    private final DecodePiece.Kind splitBy;
    private final PerfDataReading reading;

    PlanFn(int pieces, DecodePiece.Kind splitBy, PerfDataReading reading) {
      this.pieces = pieces;
      this.splitBy = splitBy;
      this.reading = reading;
    }

    @ProcessElement
    public void process(@Element String path, OutputReceiver<KV<String, PieceTask>> out)
        throws IOException {
      for (PieceTask task : plan(path, pieces, splitBy, reading)) {
        out.output(KV.of(path, task));
      }
    }
  }

  /**
   * The pieces of one input: a text trace is one piece; a perf.data file that the native reader
   * can read is one piece it reads (unless perf script is asked for); another perf.data file is
   * cut into {@code pieces} pieces by {@code splitBy}, for perf script to decode.
   */
  static List<PieceTask> plan(String path, int pieces, DecodePiece.Kind splitBy,
      PerfDataReading reading) throws IOException {
    Path perfData = localPerfData(path);
    if (perfData == null) {
      return List.of(PieceTask.text());
    }
    UnsupportedPerfDataException refused = null;
    if (reading != PerfDataReading.PERF_SCRIPT) {
      try {
        PerfDataHeader header =
            NativePerfDataReader.open(perfData, SymbolSources.live()).header();
        return List.of(new PieceTask(DecodePiece.nativeRead(), header, null));
      } catch (DamagedHeaderException e) {
        if (reading == PerfDataReading.NATIVE) {
          throw DamagedPerfDataException.header(path, e.getMessage(), "");
        }
        refused = e;
      } catch (UnsupportedPerfDataException e) {
        if (reading == PerfDataReading.NATIVE) {
          throw new UnreadableTraceException(path + ": the native perf.data reader cannot"
              + " read it: " + e.getMessage() + ". Use --perf-data-reader perf-script");
        }
        refused = e;
      }
      LOG.warn("{}: decoded with perf script, because the native reader cannot read it: {}",
          path, refused.getMessage());
    }
    PerfDataHeader header = NativePerfDataReader.isPipeMode(perfData)
        ? pipeModeHeader(path, perfData) : fallbackHeader(path, perfData, refused);
    List<DecodePiece> planned = DecodePiece.plan(header, splitBy, pieces);
    JobProgress.addTotal(JobProgress.Stage.DECODING, planned.size());
    List<PieceTask> tasks = new ArrayList<>();
    for (DecodePiece piece : planned) {
      tasks.add(new PieceTask(piece, header, null));
    }
    return tasks;
  }

  /**
   * perf script's view of the header. When the native reader found the header damaged and
   * perf cannot read it either, the file is bad input: named, with the byte offset.
   */
  private static PerfDataHeader fallbackHeader(String path, Path perfData,
      UnsupportedPerfDataException refused) throws IOException {
    try {
      return PerfDataHeader.read(perfData);
    } catch (PerfMissingException e) {
      throw e;
    } catch (IOException e) {
      if (refused instanceof DamagedHeaderException) { // the line names the offset found
        throw DamagedPerfDataException.header(path, refused.getMessage(),
            e instanceof DamagedPerfDataException d ? d.perfSaid : e.getMessage());
      }
      throw e;
    }
  }

  /**
   * perf script --header-only prints nothing of a pipe-mode file, and without the header's
   * "sample cpu" the pieces' text would lack the cpu column: the native reader's header says
   * what perf's would (no time span: the file is decoded in one piece).
   */
  private static PerfDataHeader pipeModeHeader(String path, Path perfData) throws IOException {
    try {
      return NativePerfDataReader.open(perfData, SymbolSources.live()).header();
    } catch (UnsupportedPerfDataException e) {
      return fallbackHeader(path, perfData, e);
    }
  }

  static final class DecodeFn extends DoFn<KV<String, PieceTask>, KV<String, PieceTask>> {
    @ProcessElement
    public void process(@Element KV<String, PieceTask> in,
        OutputReceiver<KV<String, PieceTask>> out) throws IOException {
      PieceTask decoded = decode(in.getKey(), in.getValue());
      if (decoded != in.getValue()) {
        Metrics.counter("loadprof", "perf_data_pieces_decoded").inc();
      }
      out.output(KV.of(in.getKey(), decoded));
    }
  }

  /**
   * A perf.data piece decoded by perf script into a local temporary file; any other piece as
   * it is.
   */
  static PieceTask decode(String path, PieceTask task) throws IOException {
    if (!task.isPerfData() || task.piece().kind() == DecodePiece.Kind.NATIVE) {
      return task;
    }
    Path text = Files.createTempFile("loadprof-piece-", ".txt");
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(text), 1 << 16)) {
      PerfScriptDecoder.decode(Paths.get(path), task.header(), task.piece(), o);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(text);
      throw e;
    }
    JobProgress.advance(JobProgress.Stage.DECODING, 1);
    return task.decodedInto(text.toString());
  }
}
