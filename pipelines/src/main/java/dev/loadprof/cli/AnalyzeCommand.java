package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressDisplay;
import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.pipelines.AnalyzeOptions;
import dev.loadprof.pipelines.AnalyzePipeline;
import java.io.PrintStream;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
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
    Integer notPerfScript = EarlyRejection.allNotPerfScript(given, parsing.windowNs(), err);
    if (notPerfScript != null) {
      return notPerfScript;
    }
    String outDir = output.orDefault(DEFAULT_OUT);
    AnalyzeOptions options = runner.pipelineOptions(pipelineArgs, AnalyzeOptions.class,
        StoreEnvironment.paths(given, outDir));
    options.setOut(outDir);
    OutputDir.checkWritable(options.getOut());
    parsing.applyTo(options);
    filters.applyTo(options);
    selection.applyTo(options);
    FileSystems.setDefaultPipelineOptions(options);
    Inputs.Resolved in = Inputs.forAnalyze(given, selection.selection(), options.getEvent(),
        parsing.windowNsIfGiven());
    options.setTraces(String.join(",", in.traces()));
    OutputDir.removeDebris(options.getOut());
    PipelineResult result;
    try (ProgressDisplay shown = progress.start(err)) {
      result = AnalyzePipeline.run(in.traces(), in.archives(), options);
    }
    return JobOutcome.analyzed(result, options.getOut(), in.runs(), out, err);
  }
}
