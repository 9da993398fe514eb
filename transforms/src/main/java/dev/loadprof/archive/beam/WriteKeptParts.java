package dev.loadprof.archive.beam;

import dev.loadprof.beam.JoinSamplesWithLoad;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.RunInfo;
import dev.loadprof.progress.JobProgress;
import dev.loadprof.report.AnalysisAssembler;
import dev.loadprof.report.Filters;
import dev.loadprof.report.RunByRunWriter;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.PDone;

/**
 * The last step of a job whose writer keeps a part of each run (nightly) and reads archived
 * runs' parts stored beside them ({@link RunFigures}) instead of their blocks: each run read
 * from blocks is assembled alone and kept, as pipelines.LocalAnalysis does, its part stored for
 * the next jobs; the stored parts join them; the writer writes from all parts ({@link
 * RunByRunWriter#writeKept}, the same bytes as from the whole analysis). Written atomically as
 * {@link WriteReports} does.
 */
public final class WriteKeptParts extends PTransform<PCollectionTuple, PDone> {
  private final PCollection<RunInfo> runs;
  private final PCollectionTuple archived;
  private final String outputDir;
  private final Filters filters;
  private final RunByRunWriter<?> writer;

  /**
   * @param archived what {@link ReadArchive} gave: its {@link ReadArchive#STORED_FIGURES} and
   *     {@link ReadArchive#FIGURES_TO_STORE}
   */
  public WriteKeptParts(PCollection<RunInfo> runs, PCollectionTuple archived, String outputDir,
      Filters filters, RunByRunWriter<?> writer) {
    this.runs = runs;
    this.archived = archived;
    this.outputDir = outputDir;
    this.filters = filters;
    this.writer = writer;
  }

  @Override
  public PDone expand(PCollectionTuple aggregated) {
    Pipeline p = aggregated.getPipeline();
    Views views = new Views(runs.apply("Collect runs", View.asList()),
        aggregated.get(JoinSamplesWithLoad.RUN_HEALTH).apply("Collect run health", View.asMap()),
        aggregated.get(JoinSamplesWithLoad.PROCESSES).apply("Collect processes",
            View.asIterable()),
        archived.get(ReadArchive.STORED_FIGURES).apply("Collect stored figures", View.asMap()),
        archived.get(ReadArchive.FIGURES_TO_STORE).apply("Collect figures to store",
            View.asMap()));
    p.apply("Once", Create.of("reports"))
        .apply("Write reports", ParDo.of(new WriteFn(views, outputDir, filters, writer))
            .withSideInputs(views.runs, views.health, views.processes, views.stored,
                views.toStore));
    return PDone.in(p);
  }

  private record Views(PCollectionView<List<RunInfo>> runs,
      PCollectionView<Map<String, Map<String, Long>>> health,
      PCollectionView<Iterable<KV<String, ProcessAccumulator>>> processes,
      PCollectionView<Map<String, Serializable>> stored,
      PCollectionView<Map<String, String>> toStore) implements Serializable {}

  static final class WriteFn extends DoFn<String, Void> {
    private final Views views;
    private final String outputDir;
    private final Filters filters;
    private final RunByRunWriter<?> writer;

    WriteFn(Views views, String outputDir, Filters filters, RunByRunWriter<?> writer) {
      this.views = views;
      this.outputDir = outputDir;
      this.filters = filters;
      this.writer = writer;
    }

    @ProcessElement
    public void process(ProcessContext c) throws IOException {
      JobProgress.addTotal(JobProgress.Stage.WRITING, 1);
      write(c, writer);
      JobProgress.advance(JobProgress.Stage.WRITING, 1);
    }

    private <K> void write(ProcessContext c, RunByRunWriter<K> w) throws IOException {
      Map<String, Map<String, Long>> health = c.sideInput(views.health);
      Map<String, Serializable> stored = c.sideInput(views.stored);
      Map<String, String> toStore = c.sideInput(views.toStore);
      Map<String, List<ProcessAccumulator>> byRun = new TreeMap<>();
      for (KV<String, ProcessAccumulator> kv : c.sideInput(views.processes)) {
        byRun.computeIfAbsent(kv.getValue().runId, r -> new ArrayList<>()).add(kv.getValue());
      }
      List<K> kept = new ArrayList<>();
      for (RunInfo run : c.sideInput(views.runs)) {
        @SuppressWarnings("unchecked")
        K part = (K) stored.get(run.runId);
        if (part != null) {
          kept.add(w.asReadToday(part, run));
          continue;
        }
        part = w.keep(AnalysisAssembler.assemble(List.of(run), health,
            byRun.getOrDefault(run.runId, List.of()), filters));
        kept.add(part);
        String where = toStore.get(run.runId);
        if (where != null && RunFigures.store(FileSystems.matchNewResource(where, false),
            (Serializable) part, c.getPipelineOptions()) != null) {
          org.apache.beam.sdk.metrics.Metrics.counter("loadprof", "figures_stored").inc();
        }
      }
      WriteReports.writeAtomically(null, outputDir,
          (none, open) -> w.writeKept(kept, filters, open));
    }
  }
}
