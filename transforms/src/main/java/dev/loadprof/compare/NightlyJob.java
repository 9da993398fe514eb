package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import dev.loadprof.report.Filters;
import dev.loadprof.report.RunAnalyses;
import dev.loadprof.report.RunByRunWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The last step of loadprof nightly's pipeline: the history of the assembled analysis, written
 * by {@link NightlyOutputs}. Its figures are per run, so a job that analyzes its runs one after
 * the other keeps of each only its figures and its processes without stacks ({@link #keep}).
 */
public record NightlyJob(NightlySettings settings) implements RunByRunWriter<NightlyJob.Kept> {
  /** One run's figures ({@link RunMetrics}) and its analysis without stacks. */
  public record Kept(Map<String, Map<SeriesKey, Double>> figures, RunAnalyses.Part run) {}

  @Override
  public void write(Analysis analysis, Function<String, OutputStream> open) throws IOException {
    NightlyOutputs.writeAll(NightlyHistory.nightly(analysis, settings), open);
  }

  @Override
  public Kept keep(Analysis run) {
    return new Kept(RunMetrics.of(run, NightlyHistory.groupOf(run.groupBy())),
        RunAnalyses.part(run));
  }

  @Override
  public void writeKept(List<Kept> kept, Filters filters, Function<String, OutputStream> open)
      throws IOException {
    Map<String, Map<SeriesKey, Double>> figures = new TreeMap<>();
    List<RunAnalyses.Part> runs = new ArrayList<>();
    for (Kept k : kept) {
      figures.putAll(k.figures());
      runs.add(k.run());
    }
    NightlyOutputs.writeAll(NightlyHistory.nightly(RunAnalyses.withoutStacks(runs, filters),
        figures, settings), open);
  }
}
