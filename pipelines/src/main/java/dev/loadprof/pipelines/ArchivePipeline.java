package dev.loadprof.pipelines;

import dev.loadprof.archive.ArchiveJob;
import dev.loadprof.archive.beam.WriteArchive;
import dev.loadprof.beam.ParseTraces;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * The archive pipeline: perf traces in, archive out. It parses exactly as analyze does (same
 * {@link ParseTraces}, window and event), and stores the parser's blocks and run infos, so that
 * analyzing the archive later gives the same outputs as analyzing the traces.
 */
public final class ArchivePipeline {
  private ArchivePipeline() {}

  public static void build(Pipeline p, List<String> traces, AnalyzeSettings settings,
      ArchiveJob job) {
    long windowNs = job.windowNs();
    PCollectionTuple parsed = p
        .apply("List traces", Create.of(traces).withCoder(StringUtf8Coder.of()))
        .apply("Spread traces over workers", Reshuffle.viaRandomKey())
        .apply("Parse traces", AnalyzePipeline.parseTraces(windowNs, settings)
            .withWarningsLogged());
    parsed.apply("Write archive", new WriteArchive(job, WriteArchive.DEFAULT_SHARDS_PER_RUN));
  }

  public static PipelineResult run(PipelineOptions options, List<String> traces,
      AnalyzeSettings settings, ArchiveJob job) {
    Pipeline p = Pipeline.create(options);
    build(p, traces, settings, job);
    return JobWait.run(p);
  }
}
