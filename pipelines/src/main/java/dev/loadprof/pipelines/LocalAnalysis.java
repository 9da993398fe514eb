package dev.loadprof.pipelines;

import dev.loadprof.beam.BuildRunIntervals;
import dev.loadprof.beam.JoinSamplesWithLoad;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.load.CpuTimeline;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.progress.JobProgress;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisAssembler;
import dev.loadprof.report.AnalysisWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * analyze's steps ({@link AnalyzePipeline}) run in this JVM without a Beam runner: the same
 * cores, called in the same order per trace, per (run, window) and per (run, process), with
 * the same outputs. For traces read on this machine by the default runner, where Beam's
 * DirectRunner cost several times the analysis itself (it re-encodes each element to check
 * it, and polls its watermarks on a core of its own while a trace is read: bench/RESULTS.md
 * section 18). Each trace's text is parsed on all cores; the windows are joined on one thread.
 */
public final class LocalAnalysis {
  private LocalAnalysis() {}

  /**
   * Analyzes {@code traces} (local files, stdin or a pipe) with {@code settings}, handing the
   * analysis to {@code writer}; returns how many of the traces could not be analyzed.
   */
  public static long run(List<String> traces, AnalyzeSettings settings, AnalysisWriter writer)
      throws IOException {
    ParseTraces parse = AnalyzePipeline.parseTraces(settings.windowMs() * 1_000_000L, settings);
    Map<String, RunInfo> runs = new LinkedHashMap<>();
    Map<String, List<EventBlock>> windows = new TreeMap<>();
    for (Read read : readAll(parse, traces)) {
      runs.put(read.info.runId, read.info);
      for (EventBlock b : read.blocks) {
        windows.computeIfAbsent(BuildRunIntervals.runWindowKey(b.runId, b.window),
            k -> new ArrayList<>()).add(b);
      }
    }
    SampleSelection selection = AnalyzePipeline.samples(settings);
    Map<String, ProcessAccumulator> processes = new TreeMap<>();
    Map<String, Map<String, Long>> health = new HashMap<>();
    List<List<EventBlock>> grouped = new ArrayList<>(windows.values());
    windows.clear();
    // One thread: one CI run of the parallel version failed with a ConcurrentModificationException
    // that could not be traced in time; the parsing inside each trace still uses every core.
    List<Collection<ProcessAccumulator>> joined = grouped.stream()
        .map(blocks -> join(blocks, selection, runs))
        .toList();
    for (int i = 0; i < grouped.size(); i++) {
      String runId = grouped.get(i).get(0).runId;
      for (EventBlock b : grouped.get(i)) {
        if (!b.health.isEmpty()) {
          Map<String, Long> sums = health.computeIfAbsent(runId, k -> new TreeMap<>());
          b.health.forEach((k, v) -> sums.merge(k, v, Long::sum));
        }
      }
      for (ProcessAccumulator acc : joined.get(i)) {
        processes.computeIfAbsent(JoinSamplesWithLoad.runPidKey(runId, acc.pid),
            k -> new ProcessAccumulator(acc.runId, acc.pid)).mergeFrom(acc);
      }
    }
    JobProgress.addTotal(JobProgress.Stage.WRITING, 1);
    Analysis analysis = AnalysisAssembler.assemble(new ArrayList<>(runs.values()), health,
        new ArrayList<>(processes.values()), AnalyzePipeline.filters(settings, selection));
    WriteReports.writeAtomically(analysis, settings.out(), writer);
    JobProgress.advance(JobProgress.Stage.WRITING, 1);
    return runs.values().stream().filter(RunInfo::isUnusable).count();
  }

  /** One window's blocks: run intervals built on each, then the samples weighed by load. */
  private static Collection<ProcessAccumulator> join(List<EventBlock> blocks,
      SampleSelection selection, Map<String, RunInfo> runs) {
    for (EventBlock b : blocks) {
      JobProgress.advance(JobProgress.Stage.JOINING, 0); // the join's first half begun
      CpuTimeline.replay(b, true);
    }
    Collection<ProcessAccumulator> out =
        JoinSamplesWithLoad.join(blocks, selection, runs.get(blocks.get(0).runId));
    JobProgress.advance(JobProgress.Stage.JOINING, blocks.size());
    return out;
  }

  private record Read(RunInfo info, List<EventBlock> blocks) {}

  /** Every trace read, one after the other (each one's text is parsed on every core). */
  private static List<Read> readAll(ParseTraces parse, List<String> traces) throws IOException {
    try {
      return traces.stream().map(path -> {
        List<EventBlock> blocks = new ArrayList<>();
        try {
          return new Read(parse.readLocally(path, blocks::add), blocks);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
