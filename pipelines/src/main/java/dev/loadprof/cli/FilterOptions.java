package dev.loadprof.cli;

import dev.loadprof.pipelines.AnalyzeOptions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import picocli.CommandLine.Option;

/** What goes into the reports: processes, loads, and the grouping of many runs. */
final class FilterOptions {
  @Option(names = {"-p", "--pid"}, paramLabel = "PID", split = ",",
      converter = Converters.Pid.class,
      description = "Only these processes (perf's -p): -p 1599 or -p 1599,1600.")
  Set<Integer> pids = new LinkedHashSet<>();

  @Option(names = "--comm", paramLabel = "REGEX", converter = Converters.Regex.class,
      description = "Only processes whose name matches this regular expression.")
  String comm;

  @Option(names = "--load", paramLabel = "A:B", converter = Converters.Load.class,
      description = "Only samples with load in [A,B] in the profile, functions and folded"
          + " outputs (A, A:, :B also work); histograms stay whole.")
  String load;

  @Option(names = "--group-by", paramLabel = "SPEC", converter = Converters.GroupBySpec.class,
      description = "Aggregate many runs by host, comm, run or run:REGEX (the first capture"
          + " group of REGEX in the run id). Default: none.")
  String groupBy = "none";

  void applyTo(AnalyzeOptions options) {
    options.setPid(pids.isEmpty() ? null : new ArrayList<>(pids));
    options.setComm(comm);
    options.setLoad(load);
    options.setGroupBy(groupBy);
  }
}
