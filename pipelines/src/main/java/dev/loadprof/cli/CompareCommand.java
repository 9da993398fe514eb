package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.compare.CompareJob;
import dev.loadprof.compare.CompareJson;
import dev.loadprof.compare.CompareSettings;
import dev.loadprof.compare.Side;
import dev.loadprof.pipelines.AnalyzeSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loadprof compare}: analyze's steps over the runs of both sides, where analyze runs
 * ({@link JobPlacement}), whose last step compares them (dev.loadprof.compare) instead of
 * writing profiles.
 */
@Command(name = "compare", customSynopsis = CompareCommand.SYNOPSIS,
    description = "Compare baseline runs with candidate runs of the same benchmark: what got"
        + " slower in real time, whether it is significant, and whether it is CPU work or lost"
        + " parallelism. Several runs a side are repeats that measure the noise.",
    footer = Usage.PASS_THROUGH + Usage.STORES + Usage.RECORD + Usage.COMPARE_EXIT_CODES)
final class CompareCommand implements JobCommand {
  static final String DEFAULT_OUT = "loadprof-compare";
  static final String SYNOPSIS = "loadprof compare [options] --baseline PATH..."
      + " --candidate PATH...";
  static final List<String> OUTPUTS = List.of("compare.txt", "compare.json", "baseline.pb.gz",
      "candidate.pb.gz (go tool pprof -diff_base=baseline.pb.gz candidate.pb.gz)",
      "diff.folded", "compare.html (open in a browser)", "summary.txt");

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", converter = Converters.NonEmpty.class,
      defaultValue = DEFAULT_OUT, description = "Output directory (default:"
          + " ./${DEFAULT-VALUE}: beside, not over, the outputs of analyze and record in"
          + " ./loadprof-out).")
  String output;
  @Mixin FilterOptions filters;
  @Mixin ComparisonOptions comparison;
  @Mixin ParsingOptions parsing;
  @Mixin RunnerOptions runner;
  @Mixin ProgressOptions progress;

  // arity 1..*: every value up to the next option, so that a shell glob's expansion works.
  @Option(names = "--baseline", paramLabel = "PATH", arity = "1..*", description = "Baseline"
      + " traces, globs, directories of recordings or archives, as many as follow the flag (or"
      + " repeat it), e.g. --baseline base-*.txt.gz or --baseline 'base-*.txt.gz'.")
  List<String> baseline = new ArrayList<>();

  @Option(names = "--candidate", paramLabel = "PATH", arity = "1..*", description = "Candidate"
      + " traces, globs, directories of recordings or archives, likewise: --candidate"
      + " new-1.txt.gz new-2.txt.gz.")
  List<String> candidate = new ArrayList<>();

  @Override
  public int run(List<String> pipelineArgs, PrintStream out, PrintStream err)
      throws UsageException {
    String outDir = output;
    if (baseline.isEmpty() || candidate.isEmpty()) {
      throw new UsageException("compare needs at least one --baseline and one --candidate;"
          + " usage: " + SYNOPSIS);
    }
    JudgedJob.refuseLoad(filters, "compare");
    CompareSettings settings = comparison.applyTo(CompareSettings.DEFAULT);
    List<String> sidesGiven = new ArrayList<>(baseline);
    sidesGiven.addAll(candidate);
    JobPlacement place = JobPlacement.choose(runner, pipelineArgs, sidesGiven, outDir);
    OutputDir.checkWritable(outDir);
    AnalyzeSettings analysis = AnalysisSettings.of(outDir, parsing, filters, null);
    Inputs.Sides in = Inputs.forCompare(baseline, candidate, analysis.event(),
        parsing.windowNsIfGiven(), err);
    Map<String, Side> sides = in.sideByRun();
    List<String> traces = in.traces();
    List<String> archives = in.archives();
    try (OutputClaim claim = OutputClaim.take(outDir, err)) {
      place.run(traces, archives, analysis.writingTo(claim.staging()),
          new CompareJob(sides, settings), progress, err);
      return JobOutcome.judged(claim, CompareJson.FILE_NAME, OUTPUTS, out, err);
    }
  }
}
