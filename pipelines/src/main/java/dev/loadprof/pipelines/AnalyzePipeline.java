package dev.loadprof.pipelines;

import dev.loadprof.archive.RunSelection;
import dev.loadprof.beam.AggregateProfiles;
import dev.loadprof.beam.BuildRunIntervals;
import dev.loadprof.beam.JoinSamplesWithLoad;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.report.AnalysisWriter;
import dev.loadprof.report.Filters;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * The analyze pipeline: perf traces in, real-time profiles out.
 *
 * <p>Steps:
 * 1) Parse each trace (one file = one run) into blocks of events per (run, CPU, time window),
 *    and one RunInfo per run (thread table, sampling event, health).
 * 2) Build run intervals for each block: who ran on that CPU when, chain breaks repaired.
 * 3) Group the blocks of all CPUs per (run, window) and give each sample its load: the number of
 *    its process's threads on a CPU at that instant.
 * 4) Sum the load-weighted stacks and load histograms per (run, process) over all windows.
 * 5) Write profile.pb.gz, histogram.txt, functions.txt, flame.folded, summary.json, summary.txt.
 */
public final class AnalyzePipeline {
  private AnalyzePipeline() {}

  /** Adds the analyze steps to {@code p}, reading the given (already expanded) trace paths. */
  public static void build(Pipeline p, List<String> traces, AnalyzeOptions options) {
    build(p, traces, List.of(), options);
  }

  /** The same, with the runs of archive directories (loadprof archive) added to the traces. */
  public static void build(Pipeline p, List<String> traces, List<String> archives,
      AnalyzeOptions options) {
    build(p, traces, archives, options, WriteReports.ANALYZE);
  }

  /**
   * The same steps, but the last one hands the assembled analysis to {@code writer} (compare,
   * nightly) instead of writing analyze's reports; it writes atomically into --out all the same.
   */
  public static void build(Pipeline p, List<String> traces, List<String> archives,
      AnalyzeOptions options, AnalysisWriter writer) {
    PCollection<String> paths = p
        .apply("List traces", Create.of(traces).withCoder(StringUtf8Coder.of()))
        // Spread the files over workers; each file is read by one worker.
        .apply("Spread traces over workers", Reshuffle.viaRandomKey());
    PCollectionTuple parsed = paths.apply("Parse traces",
        parseTraces(options.getWindowMs() * 1_000_000L, options));
    parsed = ArchiveInputs.withArchives(parsed, archives,
        RunSelection.parse(options.getNights(), options.getHosts()));
    PCollection<EventBlock> blocks = parsed.get(ParseTraces.BLOCKS);
    PCollection<RunInfo> runs = parsed.get(ParseTraces.RUNS);
    blocks
        .apply("Build run intervals", new BuildRunIntervals())
        .apply("Join samples with load", new JoinSamplesWithLoad(samples(options), runs))
        .apply("Aggregate profiles", new AggregateProfiles())
        .apply("Write reports", new WriteReports(runs, options.getOut(),
            new Filters(pids(options), options.getComm(), options.getLoad(),
                options.getGroupBy(), samples(options)), writer));
  }

  /** --tid, --cpu and --time. */
  private static SampleSelection samples(AnalyzeOptions options) {
    return new SampleSelection(
        options.getTid() == null ? null : Set.copyOf(options.getTid()),
        options.getCpu() == null ? null : SampleSelection.parseCpus(options.getCpu()),
        options.getTime());
  }

  /** The parse step with the options' event, decoding and parsing settings. */
  static ParseTraces parseTraces(long windowNs, AnalyzeOptions options) {
    return new ParseTraces(windowNs, options.getEvent(),
        options.getDecodePieces() > 0 ? options.getDecodePieces()
            : ParseTraces.DEFAULT_DECODE_PIECES,
        options.getDecodeSplit().equals("cpu") ? DecodePiece.Kind.CPU : DecodePiece.Kind.TIME,
        options.getParseThreads() > 0 ? options.getParseThreads()
            : ParseTraces.DEFAULT_PARSE_THREADS);
  }

  private static Set<Integer> pids(AnalyzeOptions options) {
    return options.getPid() == null ? null : Set.copyOf(options.getPid());
  }

  /** Builds and runs the pipeline, waiting for it to finish. */
  public static PipelineResult run(List<String> traces, AnalyzeOptions options) {
    return run(traces, List.of(), options);
  }

  /** Builds and runs the pipeline over traces and archives, waiting for it to finish. */
  public static PipelineResult run(List<String> traces, List<String> archives,
      AnalyzeOptions options) {
    return run(traces, archives, options, WriteReports.ANALYZE);
  }

  /** Runs the pipeline whose last step is {@code writer}, waiting for it to finish. */
  public static PipelineResult run(List<String> traces, List<String> archives,
      AnalyzeOptions options, AnalysisWriter writer) {
    Pipeline p = Pipeline.create(options);
    build(p, traces, archives, options, writer);
    PipelineResult result = p.run();
    result.waitUntilFinish();
    return result;
  }
}
