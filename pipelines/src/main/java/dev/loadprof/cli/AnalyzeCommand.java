package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.critical.WhatIfRequest;
import dev.loadprof.pipelines.AnalyzeSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loadprof analyze}: traces and archives in, real-time profiles out. */
@Command(name = "analyze", customSynopsis = AnalyzeCommand.SYNOPSIS,
    description = "Analyze perf.data recordings (perf record's or loadprof record's), perf"
        + " script traces (plain or .gz) and archives made by loadprof archive.",
    footer = Usage.PASS_THROUGH + Usage.STORES + Usage.RECORD + Usage.EXIT_CODES)
final class AnalyzeCommand implements JobCommand {
  static final String SYNOPSIS = "loadprof analyze [options] TRACE...";
  static final String DEFAULT_OUT = "loadprof-out";

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", converter = Converters.NonEmpty.class,
      defaultValue = DEFAULT_OUT, description = "Output directory (default: ./${DEFAULT-VALUE}).")
  String output;
  @Option(names = "--what-if", paramLabel = "REGEX=P%", converter = Converters.WhatIf.class,
      description = "Also predict the wall time if the functions whose name matches REGEX were"
          + " P %% faster (their on-CPU time P %% shorter), on the critical path of the"
          + " program perf started (summary.json's critical_path.what_if, the console);"
          + " repeatable: --what-if 'compress=50%%' --what-if '^parse$=25%%'. The top"
          + " functions on the path get 10, 25 and 50 %% without asking. First order: the same"
          + " schedule and wake-up order, no new contention.")
  List<WhatIfRequest> whatIfs = new ArrayList<>();
  @Mixin FilterOptions filters;
  @Mixin RunSelectionOptions selection;
  @Mixin ParsingOptions parsing;
  @Mixin RunnerOptions runner;
  @Mixin InputOptions inputs;
  @Mixin ProgressOptions progress;
  @Mixin ConsoleView console;

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
    String outDir = output;
    JobPlacement place = JobPlacement.choose(runner, pipelineArgs, given, outDir);
    OutputDir.checkWritable(outDir);
    AnalyzeSettings settings = AnalysisSettings.of(outDir, parsing, filters, selection)
        .withWhatIfs(whatIfs);
    Inputs.Resolved in = Inputs.forAnalyze(given, selection.selection(), settings.event(),
        parsing.windowNsIfGiven(), err);
    try (OutputClaim claim = OutputClaim.take(outDir, err)) {
      long unusable = place.run(in.traces(), in.archives(), settings.writingTo(claim.staging()),
          WriteReports.ANALYZE, progress, err);
      return JobOutcome.analyzed(unusable, claim, in.runs(), console, out, err);
    }
  }
}
