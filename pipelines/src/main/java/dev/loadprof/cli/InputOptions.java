package dev.loadprof.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The inputs: recordings (perf.data), traces (perf script text, plain or .gz), globs or
 * archives; given after the options, or with -i as perf report and pprof take them.
 */
final class InputOptions {
  @Parameters(paramLabel = "TRACE", arity = "0..*", description = "A perf.data recording"
      + " (perf record's or loadprof record's), perf script output (plain or .gz), a glob, a"
      + " directory of recordings (loadprof record's -o), or an archive made by loadprof"
      + " archive; one file is one run.")
  List<String> inputs = new ArrayList<>();

  @Option(names = {"-i", "--input"}, paramLabel = "TRACE",
      description = "An input, as perf report -i takes it (the same as a TRACE; repeatable).")
  List<String> named = new ArrayList<>();

  /** The inputs, -i's first; none is bad usage. */
  List<String> required(String synopsis) throws UsageException {
    List<String> all = new ArrayList<>(named);
    all.addAll(inputs);
    if (all.isEmpty()) {
      throw new UsageException("no trace given; usage: " + synopsis);
    }
    return all;
  }
}
