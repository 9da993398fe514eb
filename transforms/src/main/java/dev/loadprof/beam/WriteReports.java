package dev.loadprof.beam;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.ConsoleSummary;
import dev.loadprof.report.GroupBy;
import dev.loadprof.report.Reports;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
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
import org.apache.beam.sdk.util.SerializableUtils;

/**
 * Writes every output file from the aggregated profiles: pprof, histograms, functions, folded
 * stacks, summary.json and the terminal summary. Files are written into a temporary directory
 * under the output directory and moved into place only when all are complete, so a failed job
 * leaves no partial outputs.
 */
public final class WriteReports extends PTransform<PCollectionTuple, PDone> {
  public static final String CONSOLE_SUMMARY_FILE = "summary.txt";

  private final PCollection<RunInfo> runs;
  private final String outputDir;
  private final Filters filters;

  /**
   * Which processes and loads go into the outputs, and how the many-runs reports group them.
   *
   * @param pids the processes to keep; null or empty = all
   * @param groupBy a GroupBy spec (none, host, comm, run, run:REGEX); null = none
   */
  public record Filters(java.util.Set<Integer> pids, String commRegex, String loadRange,
      String groupBy) implements java.io.Serializable {
    public Filters {
      pids = pids == null || pids.isEmpty() ? null : java.util.Set.copyOf(pids);
    }

    /** Without grouping: the form used before --group-by existed. */
    public Filters(java.util.Set<Integer> pids, String commRegex, String loadRange) {
      this(pids, commRegex, loadRange, null);
    }

    public static Filters none() {
      return new Filters(null, null, null);
    }
  }

  public WriteReports(PCollection<RunInfo> runs, String outputDir, Filters filters) {
    this.runs = runs;
    this.outputDir = outputDir;
    this.filters = filters;
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
                new WriteFn(runsView, healthView, processesView, outputDir, filters))
            .withSideInputs(runsView, healthView, processesView));
    return PDone.in(p);
  }

  static final class WriteFn extends DoFn<String, Void> {
    private final PCollectionView<List<RunInfo>> runsView;
    private final PCollectionView<Map<String, Map<String, Long>>> healthView;
    private final PCollectionView<Iterable<KV<String, ProcessAccumulator>>> processesView;
    private final String outputDir;
    private final Filters filters;

    WriteFn(PCollectionView<List<RunInfo>> runsView,
        PCollectionView<Map<String, Map<String, Long>>> healthView,
        PCollectionView<Iterable<KV<String, ProcessAccumulator>>> processesView,
        String outputDir, Filters filters) {
      this.runsView = runsView;
      this.healthView = healthView;
      this.processesView = processesView;
      this.outputDir = outputDir;
      this.filters = filters;
    }

    @ProcessElement
    public void process(ProcessContext c) throws IOException {
      Analysis analysis = assemble(c.sideInput(runsView), c.sideInput(healthView),
          c.sideInput(processesView), filters);
      writeAtomically(analysis, outputDir);
    }
  }

  /** Builds the analysis from the aggregated parts: the one place filters are applied. */
  public static Analysis assemble(List<RunInfo> runInfos, Map<String, Map<String, Long>> health,
      Iterable<KV<String, ProcessAccumulator>> accumulators, Filters filters) {
    List<RunInfo> runs = new ArrayList<>();
    for (RunInfo input : runInfos) {
      RunInfo r = SerializableUtils.clone(input); // side inputs must not be mutated
      Map<String, Long> h = health.get(r.runId);
      if (h != null) {
        h.forEach(r.health::add);
      }
      runs.add(r);
    }
    runs.sort(Comparator.comparing(r -> r.runId));
    Map<String, RunInfo> byId = new java.util.HashMap<>();
    runs.forEach(r -> byId.put(r.runId, r));
    Pattern comm = filters.commRegex() == null ? null : Pattern.compile(filters.commRegex());
    List<ProcessLoad> processes = new ArrayList<>();
    List<StackWeight> stacks = new ArrayList<>();
    for (KV<String, ProcessAccumulator> kv : accumulators) {
      ProcessAccumulator acc = kv.getValue();
      RunInfo run = byId.get(acc.runId);
      if (run != null && acc.pid == TraceEventSink.UNKNOWN_ID) {
        acc.health.forEach(run.health::add);
        continue;
      }
      if (acc.pid == 0 || acc.samples == 0 || run == null) {
        continue; // the idle task (its samples are idle_samples), or never sampled
      }
      if (isUnusable(run)) {
        run.health.add(TraceHealth.SAMPLES_OF_UNUSABLE_RUN, acc.samples);
        continue;
      }
      String name = run.processName(acc.pid);
      if ((filters.pids() != null && !filters.pids().contains(acc.pid))
          || (comm != null && !comm.matcher(name).find())) {
        run.health.add(TraceHealth.SAMPLES_FILTERED_OUT, acc.samples);
        continue;
      }
      run.health.add(TraceHealth.SAMPLES_IN_PROFILES, acc.samples);
      processes.add(acc.toProcessLoad(name));
      stacks.addAll(acc.toStackWeights());
    }
    LoadRange range = filters.loadRange() == null ? LoadRange.ALL
        : LoadRange.parse(filters.loadRange());
    return new Analysis(runs, processes, stacks, range, GroupBy.parse(filters.groupBy()));
  }

  public static boolean isUnusable(RunInfo run) {
    return !run.warnings.isEmpty() && run.warnings.get(0).startsWith("UNUSABLE: ");
  }

  /** Writes all outputs into a fresh temporary directory, then moves them into outputDir. */
  public static void writeAtomically(Analysis analysis, String outputDir) throws IOException {
    ResourceId dir = FileSystems.matchNewResource(outputDir, true);
    ResourceId tmp = dir.resolve(".loadprof-tmp-" + UUID.randomUUID(),
        StandardResolveOptions.RESOLVE_DIRECTORY);
    List<ResourceId> written = new ArrayList<>();
    try {
      Reports.writeAll(analysis, name -> create(tmp, name, written));
      try (OutputStream out = create(tmp, CONSOLE_SUMMARY_FILE, written)) {
        out.write(ConsoleSummary.render(analysis).getBytes(StandardCharsets.UTF_8));
      }
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
