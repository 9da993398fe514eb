package dev.loadprof.cli;

import dev.loadprof.archive.beam.ExclusiveCreates;
import dev.loadprof.cli.progress.ProgressDisplay;
import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.pipelines.AnalyzePipeline;
import dev.loadprof.pipelines.AnalyzeSettings;
import dev.loadprof.pipelines.LocalAnalysis;
import dev.loadprof.report.AnalysisWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Where a job runs, decided here for analyze, compare and nightly alike. With no --runner nor
 * Beam or Flink option (a store's options, which say where S3 or HDFS is, do not count) and a
 * local --out, a job whose traces are local (files of text or perf.data, stdin, a pipe) and
 * whose archives are local or on a store is analyzed in this JVM without a Beam runner ({@link
 * LocalAnalysis}): the same cores and the same output bytes as Beam's DirectRunner, without its
 * per-element coder checks (bench/RESULTS.md sections 18 and 28); an archive on a store is read
 * through Beam's file systems, as the DirectRunner reads it. Anything else (a trace on a store,
 * an --out on a store, --runner, a pipeline option) runs on Beam, on the runner its options
 * name.
 */
final class JobPlacement {
  private final RunnerOptions runner;
  private final List<String> pipelineArgs;
  private final List<String> given;
  private final String outDir;
  private final boolean local;
  /** Beam's options: made at once for a job that Beam runs, else only if an input needs it. */
  private PipelineOptions options;
  /** Of a job in this JVM: Beam's options to reach the stores, no runner's. */
  private PipelineOptions storeOptions;
  /** The job Beam ran, once it ran (null for a job in this JVM). */
  private PipelineResult result;

  private JobPlacement(RunnerOptions runner, List<String> pipelineArgs, List<String> given,
      String outDir) throws UsageException {
    this.runner = runner;
    this.pipelineArgs = List.copyOf(pipelineArgs);
    this.given = List.copyOf(given);
    this.outDir = outDir;
    // A job in this JVM needs no Beam options (Beam's file systems know local files without
    // them), and making them costs ~0.3 s of start-up.
    this.local = runner.mayRunHere(pipelineArgs) && !outDir.contains("://");
    if (!local) {
      beamOptions(); // also how this JVM's reads reach the stores
    } else if (given.stream().anyMatch(JobPlacement::onStore)) {
      storeOptions();
    }
  }

  /**
   * Decides from the command line, before the inputs are resolved: a job that Beam runs gets
   * its options now, which also tell Beam's file systems how to reach the stores of
   * {@code given} and {@code outDir}.
   */
  static JobPlacement choose(RunnerOptions runner, List<String> pipelineArgs, List<String> given,
      String outDir) throws UsageException {
    return new JobPlacement(runner, pipelineArgs, given, outDir);
  }

  /**
   * Runs the job over the resolved inputs, the progress line shown meanwhile, and hands the
   * analysis to {@code writer}; returns how many runs could not be analyzed.
   */
  long run(List<String> traces, List<String> archives, AnalyzeSettings settings,
      AnalysisWriter writer, ProgressOptions progress, PrintStream err) throws UsageException {
    if (inThisJvm(traces, archives)) {
      if (archives.stream().anyMatch(JobPlacement::onStore)) {
        storeOptions(); // Beam's file systems read the store here too
      }
      long unusable;
      try (ProgressDisplay shown = progress.start(err)) {
        unusable = LocalAnalysis.run(traces, archives, settings, writer);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      LocalAnalysis.archiveNotes().forEach(note -> err.println("loadprof: " + note));
      return unusable;
    }
    PipelineOptions beam = beamOptions(); // an input that only Beam reads
    try (ProgressDisplay shown = progress.start(err, beam)) {
      result = AnalyzePipeline.run(beam, traces, archives, settings, writer);
    }
    return JobOutcome.counter(result, "unusable_runs");
  }

  /** A counter of the job Beam ran (0 when none ran, or for a job in this JVM). */
  long counter(String name) {
    return result == null ? 0 : JobOutcome.counter(result, name);
  }

  /**
   * Whether the resolved inputs (globs expanded) run in this JVM: every trace local (a trace on
   * a store is split and read by Beam's workers); archives local or on a store.
   */
  boolean inThisJvm(List<String> traces, List<String> archives) {
    return local && traces.stream().noneMatch(JobPlacement::onStore);
  }

  private static boolean onStore(String path) {
    return path.contains("://");
  }

  /** Beam's options of a job Beam runs, which also tell this JVM's file systems the stores. */
  private PipelineOptions beamOptions() throws UsageException {
    if (options == null) {
      options = runner.pipelineOptions(pipelineArgs, PipelineOptions.class,
          StoreEnvironment.paths(given, outDir));
      useStores(options);
    }
    return options;
  }

  /**
   * For a job in this JVM: Beam's options to reach the stores only, unless a Beam job's were
   * made (a job that turned out to need Beam, or options asked for before).
   */
  private void storeOptions() throws UsageException {
    if (options == null && storeOptions == null) {
      storeOptions = runner.storeOptions(pipelineArgs, StoreEnvironment.paths(given, outDir));
      useStores(storeOptions);
    }
  }

  private static void useStores(PipelineOptions options) {
    FileSystems.setDefaultPipelineOptions(options);
    ExclusiveCreates.setDefaultOptions(options); // stored figures, by a job in this JVM
  }
}
