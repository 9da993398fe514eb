package dev.loadprof.cli;

import dev.loadprof.pipelines.AnalyzeSettings;
import java.util.LinkedHashSet;
import java.util.Set;
import picocli.CommandLine.Option;

/** What goes into the reports: processes, loads, and the grouping of many runs. */
final class FilterOptions {
  @Option(names = {"-p", "--pid"}, paramLabel = "PID", split = ",",
      converter = Converters.Pid.class,
      description = "Only these processes (perf's -p): -p 1599 or -p 1599,1600.")
  Set<Integer> pids = new LinkedHashSet<>();

  @Option(names = {"--comm", "--comms"}, paramLabel = "REGEX",
      converter = Converters.Regex.class,
      description = "Only processes whose name matches this regular expression (a list of"
          + " names is a|b).")
  String comm;

  @Option(names = {"-t", "--tid"}, paramLabel = "TID", split = ",",
      converter = Converters.Tid.class,
      description = "Only these threads' samples (perf's --tid): --tid 1601,1602. In the"
          + " whole-wall view (offcpu.pb.gz, offcpu.folded, thread_states, the wall line's"
          + " waits): only these threads' running and waiting time; the span, on-CPU and"
          + " load-0 totals stay the whole process's.")
  Set<Integer> tids = new LinkedHashSet<>();

  @Option(names = {"-C", "--cpu"}, paramLabel = "CPUS", converter = Converters.CpuList.class,
      description = "Only samples taken on these CPUs (perf's -C): -C 0,2-3. A per-process"
          + " recording has CPUs only if made with perf record --sample-cpu (loadprof record"
          + " adds it); without, none of its samples is selected. In the whole-wall view"
          + " (offcpu.pb.gz, offcpu.folded, thread_states, the wall line's waits): the threads'"
          + " time running on these CPUs and waiting after they last left one of them (none"
          + " in a per-process recording, whose waits have no CPU); the span, on-CPU and"
          + " load-0 totals stay whole.")
  String cpus;

  @Option(names = "--time", paramLabel = "START,END", converter = Converters.Time.class,
      description = "Only samples in this time (perf's --time): seconds on the trace clock"
          + " (1234.5,1236.0; 1234.5, and ,1236.0 leave an end open; several pairs), or"
          + " percentages of the run (10%%/2 is the second tenth, 0%%-10%%,30%%-40%%). In the"
          + " whole-wall view (offcpu.pb.gz, offcpu.folded, thread_states, the wall line): the"
          + " instants in this time, the span, on-CPU and load-0 totals included.")
  String time;

  @Option(names = "--load", paramLabel = "A:B", converter = Converters.Load.class,
      description = "Only samples with load in [A,B] in the profile, functions and folded"
          + " outputs (A, A:, :B also work). In the whole-wall view (offcpu.pb.gz,"
          + " offcpu.folded, thread_states, the wall line): the instants at which the process's"
          + " load is in [A,B], the span, on-CPU and load-0 totals included (load-0 waits only"
          + " if A is 0). This, --tid, -C and --time narrow only the profile, functions and"
          + " folded outputs and the whole-wall view: loads are counted over all of a"
          + " process's threads, CPUs and time, and the histograms and load timeline stay"
          + " whole.")
  String load;

  @Option(names = "--group-by", paramLabel = "SPEC", converter = Converters.GroupBySpec.class,
      description = "Aggregate many runs by host, comm, run or run:REGEX (the first capture"
          + " group of REGEX in the run id). Default: none.")
  String groupBy = "none";

  void applyTo(AnalyzeSettings.Builder settings) {
    settings.filters(pids.isEmpty() ? null : Set.copyOf(pids), comm, load,
        tids.isEmpty() ? null : Set.copyOf(tids), cpus, time, groupBy);
  }
}
