package dev.loadprof.cli;

import picocli.CommandLine.Option;

/** Where a command writes: -o/--out DIR (perf's -o). */
final class OutputOptions {
  @Option(names = {"-o", "--out"}, paramLabel = "DIR", converter = Converters.NonEmpty.class,
      description = "Output directory (analyze: default ./loadprof-out; archive: the archive).")
  String out;

  String orDefault(String dir) {
    return out != null ? out : dir;
  }
}
