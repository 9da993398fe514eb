package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.compare.NightlyJob;
import dev.loadprof.compare.NightlyJson;
import dev.loadprof.compare.NightlySettings;
import dev.loadprof.pipelines.AnalyzeSettings;
import dev.loadprof.pipelines.LocalAnalysis;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loadprof nightly}: analyze's steps over a history of runs, where analyze runs ({@link
 * JobPlacement}), whose last step finds the change points and judges the latest night
 * (dev.loadprof.compare) instead of writing profiles.
 */
@Command(name = "nightly", customSynopsis = NightlyCommand.SYNOPSIS,
    description = "The history of nightly runs: change points over all nights, and the latest"
        + " night compared with the nights before it. A run's night is the night it was"
        + " archived under (archive --night), else the date in its run id (YYYY-MM-DD or"
        + " YYYYMMDD), else the recording's capture date (its header), else the trace file's"
        + " date; a night in the future or after the capture date is warned about and never"
        + " the latest. Its benchmark is the run id without the date, unless --group-by says"
        + " otherwise.",
    footer = Usage.PASS_THROUGH + Usage.STORES + Usage.RECORD + Usage.COMPARE_EXIT_CODES)
final class NightlyCommand implements JobCommand {
  static final String DEFAULT_OUT = "loadprof-nightly";
  static final String SYNOPSIS = "loadprof nightly [options] TRACE_OR_ARCHIVE...";
  static final List<String> OUTPUTS = List.of("nightly.json", "history.csv",
      "nightly.html (open in a browser)", "summary.txt");

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", converter = Converters.NonEmpty.class,
      defaultValue = DEFAULT_OUT, description = "Output directory (default: ./${DEFAULT-VALUE}).")
  String output;
  @Mixin FilterOptions filters;
  @Mixin RunSelectionOptions selection;
  @Mixin ComparisonOptions comparison;
  @Mixin ParsingOptions parsing;
  @Mixin RunnerOptions runner;
  @Mixin InputOptions inputs;
  @Mixin ProgressOptions progress;

  @Option(names = "--history", paramLabel = "N", converter = Converters.Positive.class,
      description = "The latest night is compared with at most N nights before it, back to"
          + " the last change point (default 7).")
  Integer history;

  /** How many archived runs' figures were read from the archive, how many computed. */
  private static void sayStoredFigures(JobPlacement place, Inputs.Resolved in, PrintStream err) {
    if (in.archives().isEmpty()) {
      return;
    }
    if (place.inThisJvm(in.traces(), in.archives())) {
      String note = LocalAnalysis.figuresNote();
      if (!note.isEmpty()) {
        err.println("loadprof: " + note);
      }
    } else {
      long read = place.counter("figures_read");
      long computed = place.counter("figures_computed");
      if (read + computed > 0) {
        err.println("loadprof: figures of " + read + " archived runs read from the archive, "
            + computed + " computed from their blocks (" + place.counter("figures_stored")
            + " stored for the next nights)");
      }
    }
  }

  @Override
  public int run(List<String> pipelineArgs, PrintStream out, PrintStream err)
      throws UsageException {
    String outDir = output;
    List<String> given = inputs.required(SYNOPSIS);
    JudgedJob.refuseLoad(filters, "nightly");
    NightlySettings settings = NightlySettings.DEFAULT
        .withCompare(comparison.applyTo(NightlySettings.DEFAULT.compare()));
    if (history != null) {
      settings = settings.withHistory(history);
    }
    JobPlacement place = JobPlacement.choose(runner, pipelineArgs, given, outDir);
    OutputDir.checkWritable(outDir);
    AnalyzeSettings analysis = AnalysisSettings.of(outDir, parsing, filters, selection);
    Inputs.Resolved in = Inputs.forAnalyze(given, selection.selection(), analysis.event(),
        parsing.windowNsIfGiven(), err);
    try (OutputClaim claim = OutputClaim.take(outDir, err)) {
      place.run(in.traces(), in.archives(), analysis.writingTo(claim.staging()),
          new NightlyJob(settings), progress, err);
      sayStoredFigures(place, in, err);
      return JobOutcome.judged(claim, NightlyJson.FILE_NAME, OUTPUTS, out, err);
    }
  }
}
