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

  static final String RECORD = "%nRecord a trace:%n"
      + "  perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o X.data -- CMD%n"
      + "  perf script -i X.data -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso \\%n"
      + "      --ns --show-task-events | gzip > X.txt.gz%n";

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
    return e.getMessage() + "; run '" + name + " --help' for the options";
  }
}
