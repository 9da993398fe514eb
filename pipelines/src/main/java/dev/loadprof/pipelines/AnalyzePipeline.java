package dev.loadprof.pipelines;

import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.WriteKeptParts;
import dev.loadprof.report.RunByRunWriter;
import dev.loadprof.beam.AggregateProfiles;
import dev.loadprof.beam.BuildRunIntervals;
import dev.loadprof.beam.JoinSamplesWithLoad;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.TraceRuns;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.report.AnalysisWriter;
import dev.loadprof.report.Filters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * The analyze pipeline: perf traces in, real-time profiles out.
 *
 * <p>Steps:
 * 1) Parse each trace (one file = one run; a file with the same bytes as another is that run,
 *    listed as not counted) into blocks of events per (run, CPU, time window),
 *    and one RunInfo per run (thread table, sampling event, health).
 * 2) Build run intervals for each block: who ran on that CPU when, chain breaks repaired.
 * 3) Group the blocks of all CPUs per (run, window) and give each sample its load: the number of
 *    its process's threads on a CPU at that instant.
 * 4) Sum the load-weighted stacks and load histograms per (run, process) over all windows.
 * 5) Write profile.pb.gz, histogram.txt, functions.txt, flame.folded, summary.json, summary.txt.
 */
public final class AnalyzePipeline {
  private AnalyzePipeline() {}

  /**
   * Adds the analyze steps to {@code p}, reading the given (already expanded) trace paths and the
   * runs of archive directories (loadprof archive); the last step hands the assembled analysis to
   * {@code writer}: analyze's reports, or compare's and nightly's judgement. It writes atomically
   * into the output directory either way.
   */
  public static void build(Pipeline p, List<String> traces, List<String> archives,
      AnalyzeSettings settings, AnalysisWriter writer) {
    PCollection<String> paths = p
        .apply("List traces", Create.of(traces).withCoder(StringUtf8Coder.of()))
        // Spread the files over workers; each file is read by one worker.
        .apply("Spread traces over workers", Reshuffle.viaRandomKey());
    PCollectionTuple parsed = paths.apply("Parse traces",
        parseTraces(settings.windowMs() * 1_000_000L, settings).withRuns(traceRuns(traces)));
    String storedKind = StoredKept.kind(writer, settings);
    PCollectionTuple archived = ArchiveInputs.read(parsed, archives,
        RunSelection.parse(settings.nights(), settings.hosts()), storedKind);
    parsed = ArchiveInputs.withArchives(parsed, archived);
    PCollection<EventBlock> blocks = parsed.get(ParseTraces.BLOCKS);
    PCollection<RunInfo> runs = parsed.get(ParseTraces.RUNS);
    SampleSelection samples = samples(settings);
    PCollectionTuple aggregated = blocks
        .apply("Build run intervals", new BuildRunIntervals())
        .apply("Join samples with load", new JoinSamplesWithLoad(samples, runs))
        .apply("Aggregate profiles", new AggregateProfiles());
    if (archived != null && !storedKind.isEmpty()) {
      aggregated.apply("Write reports", new WriteKeptParts(runs, archived, settings.out(),
          filters(settings, samples), (RunByRunWriter<?>) writer));
    } else {
      aggregated.apply("Write reports", new WriteReports(runs, settings.out(),
          filters(settings, samples), writer));
    }
  }

  /** The reports' filters: --pid, --comm, --load, --group-by, and the samples selected. */
  static Filters filters(AnalyzeSettings settings, SampleSelection samples) {
    return new Filters(settings.pids(), settings.comm(), settings.load(), settings.groupBy(),
        samples, settings.whatIfs());
  }

  /** --tid, --cpu and --time. */
  static SampleSelection samples(AnalyzeSettings settings) {
    return new SampleSelection(settings.tids(),
        settings.cpus() == null ? null : SampleSelection.parseCpus(settings.cpus()),
        settings.time());
  }

  /** One run per trace content, each with a run id unique in the job ({@link TraceRuns}). */
  static TraceRuns traceRuns(List<String> traces) {
    try {
      return TraceRuns.of(traces);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The parse step with the settings' event, decoding and parsing settings. */
  static ParseTraces parseTraces(long windowNs, AnalyzeSettings settings) {
    return new ParseTraces(windowNs, settings.event(),
        settings.decodePieces() > 0 ? settings.decodePieces() : ParseTraces.DEFAULT_DECODE_PIECES,
        settings.decodeSplit(),
        settings.parseThreads() > 0 ? settings.parseThreads() : ParseTraces.DEFAULT_PARSE_THREADS,
        settings.perfDataReading());
  }

  /** Builds and runs analyze's pipeline on the runner of {@code options}, waiting for it. */
  public static PipelineResult run(PipelineOptions options, List<String> traces,
      List<String> archives, AnalyzeSettings settings) {
    return run(options, traces, archives, settings, WriteReports.ANALYZE);
  }

  /** Runs the pipeline whose last step is {@code writer}, waiting for it to finish. */
  public static PipelineResult run(PipelineOptions options, List<String> traces,
      List<String> archives, AnalyzeSettings settings, AnalysisWriter writer) {
    Pipeline p = Pipeline.create(options);
    build(p, traces, archives, settings, writer);
    return JobWait.run(p);
  }
}
