package dev.loadprof.cli;

import dev.loadprof.record.RecordAndAnalyze;
import dev.loadprof.record.RecordMode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loadprof record}: run a program under perf, then analyze the recording. */
@Command(name = "record", customSynopsis = RecordCommand.SYNOPSIS,
    description = {"Run CMD under perf record in the mode that works here, analyze the recording"
        + " and write the usual outputs. Each recording is kept in the output directory in a"
        + " file of its own, CMD-YYYYMMDD-HHMMSS.data (the UTC time it started; --name"
        + " chooses another), which is its run id and night: loadprof analyze, compare and"
        + " nightly take DIR (its recordings) or DIR/CMD-*.data as they are.",
        "CMD's stdin, stdout and stderr are the terminal's, and loadprof exits with CMD's exit"
        + " code. Ctrl-C stops CMD and the recording; what was recorded is still analyzed."},
    footer = Usage.EXIT_CODES)
final class RecordCommand implements JobCommand {
  static final String SYNOPSIS = "loadprof record [options] -- CMD ARGS...";

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", converter = Converters.NonEmpty.class,
      defaultValue = AnalyzeCommand.DEFAULT_OUT,
      description = "Where the recording and the outputs go (default: ./${DEFAULT-VALUE}).")
  String output;

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "auto",
      description = "system: sched_switch and wake-ups on every CPU, kernel and user frames (needs"
          + " root or the sysctl kernel.perf_event_paranoid=-1); process: context-switch records of"
          + " CMD's own threads, user-space frames only, no root needed; auto (default): system"
          + " when permitted, else process.")
  String mode;

  @Option(names = "--name", paramLabel = "NAME",
      description = "Keep the recording as NAME.data (default: CMD-YYYYMMDD-HHMMSS, the UTC"
          + " time it started). A name already taken is never overwritten: NAME-2.data, ...")
  String name;

  @Option(names = "--freq", paramLabel = "HZ",
      description = "Sampling frequency (default: perf's 4000 Hz).")
  Integer freq;

  @Option(names = {"-m", "--mmap-pages"}, paramLabel = "PAGES",
      description = "perf's buffer a CPU, in pages (a power of 2) or as a size such as 8M"
          + " (perf record -m; default 512 KB). A larger one when perf lost events.")
  String mmapPages;

  @Parameters(paramLabel = "CMD", arity = "0..*", description = "The program and its arguments.")
  List<String> command = new ArrayList<>();

  @Override
  public int run(List<String> pipelineArgs, PrintStream out, PrintStream err)
      throws UsageException {
    OutputDir.checkWritable(output); // before the program runs: its recording needs a place
    RecordMode recordMode = RecordAndAnalyze.mode(mode, err);
    if (recordMode == null) {
      return ExitCode.BAD_INPUT;
    }
    return RecordAndAnalyze.run(recordMode,
        output, name, freq, mmapPages, command, pipelineArgs, err,
        args -> LoadprofCli.run(args, out, err));
  }
}
