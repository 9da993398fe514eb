package dev.loadprof.cli;

import dev.loadprof.archive.beam.ClientListings;
import dev.loadprof.pipelines.JobWait;
import dev.loadprof.progress.StoreOutages;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * The {@code loadprof} command: picks the subcommand, and turns everything that goes wrong into
 * an exit code (0 success, 1 the job failed, 2 bad usage or bad input, with one line that says
 * what to do).
 */
@Command(name = "loadprof", synopsisSubcommandLabel = "COMMAND",
    // Inherited by every subcommand: -h/--help, -V/--version and the help layout.
    scope = ScopeType.INHERIT, mixinStandardHelpOptions = true, versionProvider = Version.class,
    usageHelpWidth = 100, sortOptions = false,
    description = Usage.ABOUT,
    subcommands = {RecordCommand.class, AnalyzeCommand.class, ArchiveCommand.class,
        CompareCommand.class, NightlyCommand.class},
    footer = "%nRun 'loadprof COMMAND --help' for a command's options.%n" + Usage.EXIT_CODES
        + "compare and nightly: 3 a significant real-time regression, 4 a process missing from"
        + " one side.%n" + Usage.START)
public final class LoadprofCli {
  @Option(names = Logging.DEBUG, scope = ScopeType.INHERIT,
      description = "On a failure, also print its whole stack trace (for a bug report).")
  boolean debug; // read from the raw arguments (Logging.debug), so that parse errors see it too

  /**
   * Made before the job: with the heap exhausted, even the advice line of {@link OutOfMemory}
   * may fail to be made, and an error that leaves main ends the JVM with exit 0.
   */
  private static final byte[] OUT_OF_MEMORY = ("loadprof: " + OutOfMemory.advice(
      new OutOfMemoryError("Java heap space"), Runtime.getRuntime().maxMemory()) + "\n")
      .getBytes(java.nio.charset.StandardCharsets.UTF_8);

  public static void main(String[] args) {
    try {
      ThreadFailures.install(System.err, Logging.debug(List.of(args)));
      RunTempDir.claim();
      JobWait.claimMarker();
      CompilerDirectives.addInBackground();
      StoreWarmUp.startFor(List.of(args));
      int code = run(args, System.out, System.err);
      RunnerThreads.awaitEnd(RunnerThreads.MOST);
      PipedStdin.drainIfAnInput(args, System.err);
      System.exit(ThreadFailures.afterJob(code, System.err));
    } catch (OutOfMemoryError e) {
      System.err.write(OUT_OF_MEMORY, 0, OUT_OF_MEMORY.length);
      System.err.flush();
      PipedStdin.drainIfAnInput(args, System.err); // the job's heap is free again by now
      Runtime.getRuntime().halt(ExitCode.JOB_FAILED);
    }
  }

  /** Runs {@code loadprof ARGS...}, printing to {@code out} and {@code err}. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Logging.configure(List.of(args));
    boolean debug = Logging.debug(List.of(args));
    StoreOutages.reset();
    PrintWriter outWriter = new PrintWriter(out, true);
    try {
      // In the try: out of heap already while the command line is made is one line too.
      CommandLine cli = commandLine().setOut(outWriter).setErr(new PrintWriter(err, true));
      PipelineOptionArgs.Split split = PipelineOptionArgs.split(cli, args);
      ParseResult parsed = cli.parseArgs(split.loadprofArgs());
      if (CommandLine.printHelpIfRequested(parsed)) {
        return ExitCode.OK;
      }
      if (!parsed.hasSubcommand()) {
        cli.usage(outWriter);
        return ExitCode.BAD_INPUT;
      }
      JobCommand command = parsed.subcommand().commandSpec().commandLine().getCommand();
      String tempFull = FreeSpace.tempDirTooFull(RunTempDir.userTempDir().toFile());
      if (tempFull != null) {
        err.println("loadprof: " + tempFull);
        return ExitCode.JOB_FAILED;
      }
      // What the client lists of the archives, its job in this JVM lists from.
      ClientListings.begin();
      try {
        return command.run(split.pipelineArgs(), out, err);
      } finally {
        ClientListings.end();
      }
    } catch (ParameterException e) {
      stackTrace(debug, e, err);
      err.println("loadprof: " + Usage.errorLine(e));
      return ExitCode.BAD_INPUT;
    } catch (UsageException e) {
      stackTrace(debug, e, err);
      if (StoreOutages.first() != null) { // a check met a store that did not answer: no bad usage
        return storeOutage(err);
      }
      err.println("loadprof: " + e.getMessage());
      return ExitCode.BAD_INPUT;
    } catch (RuntimeException e) {
      stackTrace(debug, e, err);
      if (StoreOutages.first() != null) { // whichever request failed first: the store's line
        return storeOutage(err);
      }
      String diskFull = FreeSpace.diskFull(e);
      if (diskFull != null) {
        err.println("loadprof: " + diskFull);
        return ExitCode.JOB_FAILED;
      }
      return JobOutcome.failed(e, err);
    } catch (Error e) { // out of memory, a native library that cannot load: one line too
      stackTrace(debug, e, err);
      String oom = OutOfMemory.advice(e);
      err.println("loadprof: " + (oom != null ? oom : "the job failed: " + e
          + " (run again with --verbose for the runner's log, --debug for its stack trace)"));
      return ExitCode.JOB_FAILED;
    } finally {
      outWriter.flush();
    }
  }

  /** A job that a store did not answer: the line that names the store (StoreOutages). */
  private static int storeOutage(PrintStream err) {
    err.println("loadprof: the job failed: " + StoreOutages.first());
    return ExitCode.JOB_FAILED;
  }

  /** With --debug: the failure's whole stack trace, before its one line. */
  private static void stackTrace(boolean debug, Throwable e, PrintStream err) {
    if (debug) {
      e.printStackTrace(err);
    }
  }

  /** The command tree, also read by the build to generate the shell completion script. */
  static CommandLine commandLine() {
    return new CommandLine(new LoadprofCli())
        .setExpandAtFiles(false) // "@name" is a file name, not a list of arguments
        .setColorScheme(Help.defaultColorScheme(Help.Ansi.OFF));
  }
}
