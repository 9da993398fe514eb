package dev.loadprof.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The texts of --help that are not an option's own description, and the one-line form of every
 * usage error. Constants, because the command annotations take them.
 */
final class Usage {
  static final String ABOUT = "Real-time profiles from perf traces: each CPU sample of a"
      + " process is weighted period/load, where load = how many of its threads were on a CPU"
      + " at that instant.";

  /** The top-level help's last lines: how to start. */
  static final String START = "%nRecord a program and analyze it (outputs in ./loadprof-out):%n"
      + "  loadprof record -- CMD ARGS...%n";

  /** The commands that take recordings: loadprof record's, or one made by hand. */
  static final String RECORD = "%nRecord a program and analyze it: loadprof record -- CMD ARGS..."
      + "%nOr record by hand and give the perf.data to loadprof:%n"
      + "  perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o X.data -- CMD%n";

  static final String PASS_THROUGH = "%nAny Beam or Flink pipeline option passes through"
      + " unchanged, as --name=value or --name value (e.g. --parallelism 2,"
      + " --maxBundleSize=1000); an unknown one is refused. Use -- to end the options.%n";

  static final String STORES = "%nS3 and HDFS: inputs and -o may be s3://BUCKET/... or"
      + " hdfs://HOST:PORT/... paths (./loadprof then adds the stores module). S3 credentials"
      + " and region come from the AWS SDK's environment variables (AWS_ACCESS_KEY_ID,"
      + " AWS_SECRET_ACCESS_KEY, AWS_REGION) or profile; AWS_ENDPOINT_URL picks another S3"
      + " server, addressed path-style, e.g. a local one:%n"
      + "  AWS_ENDPOINT_URL=http://127.0.0.1:9090 loadprof archive -o s3://b/arch T.txt.gz%n"
      + "HDFS configuration comes from HADOOP_CONF_DIR (core-site.xml, hdfs-site.xml), else"
      + " the NameNode of the first hdfs:// path.%n"
      + "Archives are partitioned by night and host: archive --night YYYY-MM-DD sets the"
      + " night; analyze --nights 2026-11-01..2026-11-07 --hosts web1,web2 reads only those"
      + " runs.%n";

  static final String EXIT_CODES = "%n" + ExitCode.DOCUMENTED + "%n";

  static final String COMPARE_EXIT_CODES = "%n" + ExitCode.DOCUMENTED_COMPARE + "%n";

  private Usage() {}

  /** A usage error as one line: what is wrong, and the --help to run. */
  static String errorLine(ParameterException e) {
    CommandLine command = e.getCommandLine();
    String name = command.getCommandSpec().qualifiedName();
    if (e instanceof UnmatchedArgumentException unmatched
        && command.getCommandSpec().parent() == null) {
      List<String> args = unmatched.getUnmatched();
      if (!args.isEmpty() && !args.get(0).startsWith("-")) {
        return "unknown command '" + args.get(0) + "'; the commands are "
            + String.join(", ", command.getSubcommands().keySet()) + " (run loadprof --help)";
      }
    }
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
        && unmatched.getUnmatched().get(0).startsWith("-")) {
      return unknownOption(unmatched.getUnmatched().get(0), command);
    }
    return e.getMessage() + "; run '" + name + " --help' for the options";
  }

  /**
   * The one line for an option that neither the command nor Beam knows: the closest of the
   * command's own options where one is close (picocli's suggestion), and the --help to run.
   */
  static String unknownOption(String option, CommandLine command) {
    String name = option.contains("=") && option.startsWith("--")
        ? option.substring(0, option.indexOf('=')) : option;
    String close = closest(name, command.getCommandSpec().optionsMap().keySet());
    String suggestion = close == null ? "" : " (did you mean " + close + "?)";
    return "unknown option " + name + suggestion + "; run '"
        + command.getCommandSpec().qualifiedName() + " --help' for the options";
  }

  /**
   * The option name fewest edits away from {@code typed} (a typo: a letter missing, doubled or
   * swapped), if it is close enough to be what was meant; else null.
   */
  static String closest(String typed, java.util.Collection<String> names) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String name : names) {
      int d = editDistance(typed, name);
      if (d < bestDistance || d == bestDistance && name.compareTo(best) < 0) {
        best = name;
        bestDistance = d;
      }
    }
    boolean aWord = typed.length() > 3; // -x is no typo of -C
    return aWord && best != null && bestDistance <= Math.max(1, typed.length() / 4) ? best : null;
  }

  /** Levenshtein's distance: the insertions, deletions and substitutions from a to b. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }
}
