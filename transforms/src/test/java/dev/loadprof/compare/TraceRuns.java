package dev.loadprof.compare;

import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.RunInfo;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisAssembler;
import dev.loadprof.report.Filters;
import dev.loadprof.report.GroupBy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Analyses of the recorded compare fixtures (traces/compare/*.txt.gz), made in memory the way
 * the analyze pipeline assembles them: idle task and unsampled processes left out, unusable runs
 * flagged. Each trace is parsed once per test JVM.
 */
final class TraceRuns {
  static final String DIR = "/traces/compare/";
  private static final long WINDOW_NS = 1_000_000_000L;
  private static final Map<String, InMemoryAnalysis> CACHE = new HashMap<>();

  private TraceRuns() {}

  /** The named fixtures (e.g. "base-1") under run ids given by rename (fixture -> run id). */
  static Analysis analysis(Map<String, String> runIdByFixture, GroupBy groupBy) {
    return analysis(runIdByFixture, groupBy, null);
  }

  /**
   * @param comm keeps only processes whose name this finds, like analyze --comm; null keeps all
   */
  static Analysis analysis(Map<String, String> runIdByFixture, GroupBy groupBy,
      java.util.regex.Pattern comm) {
    List<RunInfo> runs = new ArrayList<>();
    List<ProcessLoad> processes = new ArrayList<>();
    List<StackWeight> stacks = new ArrayList<>();
    runIdByFixture.forEach((fixture, runId) -> {
      InMemoryAnalysis a = parsed(fixture);
      RunInfo run = a.run.copy();
      run.runId = runId;
      runs.add(run);
      if (run.isUnusable()) {
        return; // its warnings say why, as the pipeline's
      }
      for (ProcessAccumulator acc : a.processes.values()) {
        if (acc.pid <= 0 || acc.samples == 0
            || (comm != null && !comm.matcher(run.processName(acc.pid)).find())) {
          continue;
        }
        ProcessLoad p = acc.toProcessLoad(run.processName(acc.pid));
        p.runId = runId;
        processes.add(p);
        for (StackWeight s : acc.toStackWeights()) {
          stacks.add(new StackWeight(runId, s.pid(), s.tid(), s.load(), s.stack(), s.count(),
              s.cpuNs()));
        }
      }
    });
    Analysis analysis = new Analysis(runs, processes, stacks, LoadRange.ALL, groupBy);
    if (comm != null) { // chosen as with --comm: compare compares these, not the subject
      analysis = analysis.withProcessSelection("--comm " + comm.pattern());
    }
    return analysis;
  }

  /**
   * The fixtures assembled as the analyze pipeline assembles them (AnalysisAssembler), with the
   * thread states of the system-wide recordings, so with the wall figures and interference;
   * parsed afresh under the given run ids (fixture -> run id), only processes whose name
   * commRegex finds.
   */
  static Analysis assembled(Map<String, String> runIdByFixture, String commRegex) {
    List<RunInfo> runs = new ArrayList<>();
    List<ProcessAccumulator> accumulators = new ArrayList<>();
    runIdByFixture.forEach((fixture, runId) -> {
      try (InputStream in = new GZIPInputStream(TraceRuns.class.getResourceAsStream(
          DIR + fixture + ".txt.gz"))) {
        InMemoryAnalysis a = InMemoryAnalysis.of(new PerfScriptParser(), in, runId, WINDOW_NS);
        runs.add(a.run);
        accumulators.addAll(a.processes.values());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    return AnalysisAssembler.assemble(runs, Map.of(), accumulators,
        new Filters(null, commRegex, null));
  }

  /** The fixtures under their own names, only the benchmark process (--comm '^mixed$'). */
  static Analysis mixed(List<String> fixtures) {
    Map<String, String> ids = new LinkedHashMap<>();
    for (String f : fixtures) {
      ids.put(f, f);
    }
    return analysis(ids, GroupBy.NONE, java.util.regex.Pattern.compile("^mixed$"));
  }

  /** "base-1", "base-2", ... for the given numbers. */
  static List<String> runs(String kind, int... numbers) {
    List<String> out = new ArrayList<>();
    for (int n : numbers) {
      out.add(kind + "-" + n);
    }
    return out;
  }

  /** Compares baseline with candidate fixtures, benchmark process only. */
  static Comparison compare(List<String> baseline, List<String> candidate) {
    List<String> all = new ArrayList<>(baseline);
    all.addAll(candidate);
    return Compare.compare(mixed(all), sides(baseline, candidate), CompareSettings.DEFAULT);
  }

  static Map<String, Side> sides(List<String> baseline, List<String> candidate) {
    Map<String, Side> m = new HashMap<>();
    baseline.forEach(r -> m.put(r, Side.BASELINE));
    candidate.forEach(r -> m.put(r, Side.CANDIDATE));
    return m;
  }

  static synchronized InMemoryAnalysis parsed(String fixture) {
    return CACHE.computeIfAbsent(fixture, f -> {
      // "/traces/x" names a fixture outside the compare directory.
      try (InputStream in = new GZIPInputStream(TraceRuns.class.getResourceAsStream(
          (f.startsWith("/") ? f : DIR + f) + ".txt.gz"))) {
        return InMemoryAnalysis.of(new PerfScriptParser(), in, f, WINDOW_NS);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
