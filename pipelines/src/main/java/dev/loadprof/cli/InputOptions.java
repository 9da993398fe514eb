package dev.loadprof.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Parameters;

/** The positional inputs: trace files (perf script text, plain or .gz), globs or archives. */
final class InputOptions {
  @Parameters(paramLabel = "TRACE", arity = "0..*", description = "perf script output (plain"
      + " or .gz; one file is one run), a glob, or an archive made by loadprof archive.")
  List<String> inputs = new ArrayList<>();

  /** The inputs; none is bad usage. */
  List<String> required(String synopsis) throws UsageException {
    if (inputs.isEmpty()) {
      throw new UsageException("no trace given; usage: " + synopsis);
    }
    return inputs;
  }
}
