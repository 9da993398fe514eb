package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressDisplay;
import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.pipelines.AnalyzePipeline;
import dev.loadprof.pipelines.LocalAnalysis;
import dev.loadprof.pipelines.AnalyzeSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code loadprof analyze}: traces and archives in, real-time profiles out. */
@Command(name = "analyze", customSynopsis = AnalyzeCommand.SYNOPSIS,
    description = "Analyze perf script traces (plain or .gz) and/or archives made by"
        + " loadprof archive.",
    footer = Usage.PASS_THROUGH + Usage.STORES + Usage.RECORD + Usage.EXIT_CODES)
final class AnalyzeCommand implements JobCommand {
  static final String SYNOPSIS = "loadprof analyze [options] TRACE...";
  static final String DEFAULT_OUT = "loadprof-out";

  @Mixin OutputOptions output;
  @Mixin FilterOptions filters;
  @Mixin RunSelectionOptions selection;
  @Mixin ParsingOptions parsing;
  @Mixin RunnerOptions runner;
  @Mixin InputOptions inputs;
  @Mixin ProgressOptions progress;

  @Override
  public int run(List<String> pipelineArgs, PrintStream out, PrintStream err)
      throws UsageException {
    List<String> given = inputs.required(SYNOPSIS);
    EarlyRejection.missingLocalTraces(given);
    EarlyRejection.unreadableLocalTraces(given);
    Integer notPerfScript = EarlyRejection.allNotPerfScript(given, parsing.windowNs(), err);
    if (notPerfScript != null) {
      return notPerfScript;
    }
    String outDir = output.orDefault(DEFAULT_OUT);
    // A job in this JVM needs no Beam options (Beam's file systems know local files without
    // them), and making them costs ~0.3 s of start-up.
    boolean local = runner.inThisJvm(pipelineArgs, given) && !outDir.contains("://");
    PipelineOptions options = local ? null : runner.pipelineOptions(pipelineArgs,
        PipelineOptions.class, StoreEnvironment.paths(given, outDir));
    OutputDir.checkWritable(outDir);
    AnalyzeSettings settings = AnalysisSettings.of(outDir, parsing, filters, selection);
    if (options != null) {
      FileSystems.setDefaultPipelineOptions(options);
    }
    Inputs.Resolved in = Inputs.forAnalyze(given, selection.selection(), settings.event(),
        parsing.windowNsIfGiven(), err);
    if (local && runner.inThisJvm(pipelineArgs, in.traces())) {
      return inThisJvm(in, settings, outDir, out, err);
    }
    if (options == null) { // an input that only Beam reads
      options = runner.pipelineOptions(pipelineArgs, PipelineOptions.class,
          StoreEnvironment.paths(given, outDir));
      FileSystems.setDefaultPipelineOptions(options);
    }
    try (OutputClaim claim = OutputClaim.take(outDir)) {
      PipelineResult result;
      try (ProgressDisplay shown = progress.start(err, options)) {
        result = AnalyzePipeline.run(options, in.traces(), in.archives(),
            settings.writingTo(claim.staging()));
      }
      return JobOutcome.analyzed(result, claim, in.runs(), out, err);
    }
  }

  /** The same job without a Beam runner ({@link LocalAnalysis}): the same outputs, sooner. */
  private int inThisJvm(Inputs.Resolved in, AnalyzeSettings settings, String outDir,
      PrintStream out, PrintStream err) throws UsageException {
    try (OutputClaim claim = OutputClaim.take(outDir)) {
      long unusable;
      try (ProgressDisplay shown = progress.start(err)) {
        unusable = LocalAnalysis.run(in.traces(), in.archives(),
            settings.writingTo(claim.staging()), WriteReports.ANALYZE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return JobOutcome.analyzed(unusable, claim, in.runs(), out, err);
    }
  }
}
