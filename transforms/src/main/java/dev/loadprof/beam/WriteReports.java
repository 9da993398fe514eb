package dev.loadprof.beam;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.RunInfo;
import dev.loadprof.progress.JobProgress;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisWriter;
import dev.loadprof.report.AnalysisAssembler;
import dev.loadprof.report.ConsoleSummary;
import dev.loadprof.report.Filters;
import dev.loadprof.report.Report;
import dev.loadprof.report.Reports;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.PDone;

/**
 * Writes every output file ({@link Reports#ALL}) from the aggregated profiles. Files are written
 * into a temporary directory under the output directory and moved into place only when all are
 * complete, so a failed job leaves no partial outputs. Those moves are file by file: a process
 * killed among them leaves a mix. So the CLI gives a private staging directory as the output
 * directory, and publishes it into --out through a journal that the next job finishes
 * (dev.loadprof.cli.PublishJournal): --out gets the outputs complete or not at all.
 */
public final class WriteReports extends PTransform<PCollectionTuple, PDone> {
  /** The console summary's file, which the CLI prints; see {@link ConsoleSummary}. */
  public static final String CONSOLE_SUMMARY_FILE = ConsoleSummary.FILE_NAME;
  /** The temporary directory of a job's outputs; a killed job's is removed by the next run. */
  public static final String TMP_PREFIX = ".loadprof-tmp-";

  /** analyze's outputs: every report of {@link Reports#ALL}. */
  public static final AnalysisWriter ANALYZE = Reports::writeAll;

  private final PCollection<RunInfo> runs;
  private final String outputDir;
  private final Filters filters;
  private final AnalysisWriter writer;

  public WriteReports(PCollection<RunInfo> runs, String outputDir, Filters filters) {
    this(runs, outputDir, filters, ANALYZE);
  }

  /** Writes what {@code writer} makes of the analysis instead of analyze's reports. */
  public WriteReports(PCollection<RunInfo> runs, String outputDir, Filters filters,
      AnalysisWriter writer) {
    this.runs = runs;
    this.outputDir = outputDir;
    this.filters = filters;
    this.writer = writer;
  }

  @Override
  public PDone expand(PCollectionTuple aggregated) {
    Pipeline p = aggregated.getPipeline();
    PCollectionView<List<RunInfo>> runsView = runs.apply("Collect runs", View.asList());
    PCollectionView<Map<String, Map<String, Long>>> healthView = aggregated
        .get(JoinSamplesWithLoad.RUN_HEALTH).apply("Collect run health", View.asMap());
    PCollectionView<Iterable<KV<String, ProcessAccumulator>>> processesView = aggregated
        .get(JoinSamplesWithLoad.PROCESSES).apply("Collect processes", View.asIterable());
    // One trigger element, so the reports are written even when no process was found.
    p.apply("Once", Create.of("reports"))
        .apply("Write reports", ParDo.of(
                new WriteFn(runsView, healthView, processesView, outputDir, filters, writer))
            .withSideInputs(runsView, healthView, processesView));
    return PDone.in(p);
  }

  static final class WriteFn extends DoFn<String, Void> {
    private final PCollectionView<List<RunInfo>> runsView;
    private final PCollectionView<Map<String, Map<String, Long>>> healthView;
    private final PCollectionView<Iterable<KV<String, ProcessAccumulator>>> processesView;
    private final String outputDir;
    private final Filters filters;
    private final AnalysisWriter writer;

    WriteFn(PCollectionView<List<RunInfo>> runsView,
        PCollectionView<Map<String, Map<String, Long>>> healthView,
        PCollectionView<Iterable<KV<String, ProcessAccumulator>>> processesView,
        String outputDir, Filters filters, AnalysisWriter writer) {
      this.runsView = runsView;
      this.healthView = healthView;
      this.processesView = processesView;
      this.outputDir = outputDir;
      this.filters = filters;
      this.writer = writer;
    }

    @ProcessElement
    public void process(ProcessContext c) throws IOException {
      JobProgress.addTotal(JobProgress.Stage.WRITING, 1);
      Analysis analysis = assemble(c.sideInput(runsView), c.sideInput(healthView),
          c.sideInput(processesView), filters);
      writeAtomically(analysis, outputDir, writer);
      JobProgress.advance(JobProgress.Stage.WRITING, 1);
    }
  }

  /** The analysis of the side inputs; see {@link AnalysisAssembler}. */
  static Analysis assemble(List<RunInfo> runs, Map<String, Map<String, Long>> health,
      Iterable<KV<String, ProcessAccumulator>> accumulators, Filters filters) {
    List<ProcessAccumulator> values = new ArrayList<>();
    accumulators.forEach(kv -> values.add(kv.getValue()));
    return AnalysisAssembler.assemble(runs, health, values, filters);
  }

  /** Writes analyze's outputs into a temporary directory, then moves them into outputDir. */
  public static void writeAtomically(Analysis analysis, String outputDir) throws IOException {
    writeAtomically(analysis, outputDir, ANALYZE);
  }

  /**
   * Writes what {@code writer} makes of the analysis into a fresh temporary directory, then
   * moves it into outputDir, where analyze's outputs ({@link Reports#ALL}) that this job did
   * not write (an earlier job's runs.txt and groups.txt) are deleted, so the directory holds
   * this job's outputs only. No other file is ever deleted.
   */
  public static void writeAtomically(Analysis analysis, String outputDir, AnalysisWriter writer)
      throws IOException {
    ResourceId dir = FileSystems.matchNewResource(outputDir, true);
    ResourceId tmp = dir.resolve(TMP_PREFIX + UUID.randomUUID(),
        StandardResolveOptions.RESOLVE_DIRECTORY);
    List<ResourceId> written = new ArrayList<>();
    try {
      writer.write(analysis, name -> create(tmp, name, written));
    } catch (UncheckedIOException e) {
      discard(tmp, written);
      throw e.getCause();
    } catch (IOException | RuntimeException e) {
      discard(tmp, written);
      throw e;
    }
    List<ResourceId> targets = new ArrayList<>();
    for (ResourceId src : written) {
      targets.add(dir.resolve(src.getFilename(), StandardResolveOptions.RESOLVE_FILE));
    }
    FileSystems.rename(written, targets, MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
    FileSystems.delete(List.of(tmp), MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
    FileSystems.delete(staleOutputs(dir, written),
        MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
  }

  /** analyze's outputs that this job did not write. */
  private static List<ResourceId> staleOutputs(ResourceId dir, List<ResourceId> written) {
    Set<String> names = new HashSet<>();
    written.forEach(w -> names.add(w.getFilename()));
    List<ResourceId> stale = new ArrayList<>();
    for (Report r : Reports.ALL) {
      if (!names.contains(r.fileName())) {
        stale.add(dir.resolve(r.fileName(), StandardResolveOptions.RESOLVE_FILE));
      }
    }
    return stale;
  }

  /** Leaves nothing behind: the outputs appear complete or not at all. */
  private static void discard(ResourceId tmp, List<ResourceId> written) throws IOException {
    FileSystems.delete(written, MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
    FileSystems.delete(List.of(tmp), MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
  }

  private static OutputStream create(ResourceId dir, String name, List<ResourceId> written) {
    ResourceId file = dir.resolve(name, StandardResolveOptions.RESOLVE_FILE);
    written.add(file);
    try {
      return Channels.newOutputStream(FileSystems.create(file, "application/octet-stream"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
