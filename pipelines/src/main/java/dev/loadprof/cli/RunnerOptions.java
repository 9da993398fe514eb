package dev.loadprof.cli;

import dev.loadprof.pipelines.RunnerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptions;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Where the job runs: --runner picks a config of runner-configs/, whose options go before the
 * Beam and Flink options given on the command line (so the user's win); --verbose shows the
 * frameworks' logs.
 */
final class RunnerOptions {
  @Option(names = "--runner", paramLabel = "NAME", converter = RunnerName.class,
      description = "Where the job runs: direct (Beam's DirectRunner, in this JVM; the default"
          + " when a trace or --out is on a store; local traces and archives, local or on a"
          + " store, run in this JVM without a Beam runner), flink (embedded Flink),"
          + " flink-cluster (the local cluster of scripts/flink-cluster.sh), or a .properties"
          + " file; see runner-configs/.")
  String runner; // null: not given, the default (direct)

  @Option(names = Logging.VERBOSE,
      description = "Also show Beam's and Flink's own log lines from INFO up (otherwise only"
          + " Beam's errors, and none of Flink's).")
  boolean verbose;

  /**
   * The pipeline options: the runner's config, then the user's pipeline arguments, then what
   * the stores of {@code storePaths} need from the environment (see StoreEnvironment).
   */
  <T extends PipelineOptions> T pipelineOptions(List<String> pipelineArgs, Class<T> type,
      List<String> storePaths) throws UsageException {
    BeamOptionsRegistry.whole(); // a Beam job: every options interface, as Beam registers them
    List<String> userArgs = new ArrayList<>(pipelineArgs);
    String config = runner == null ? "direct" : runner;
    if (config.endsWith("Runner")) { // a Beam runner name, e.g. FlinkRunner: passes through
      userArgs.add("--runner=" + config);
      config = "direct";
    }
    String[] args = StoreEnvironment.withStores(
        List.of(RunnerName.load(config).withUserArgs(userArgs.toArray(new String[0]))),
        storePaths, System.getenv(), RunnerConfig.resolveHome()).toArray(new String[0]);
    T options = PipelineOptionArgs.parse(args, type);
    checkFlinkMasterReachable(options, args);
    return options;
  }

  /**
   * Beam's options of a job in this JVM ({@link #mayRunHere}), which uses them only to reach the
   * stores of {@code storePaths}: the store options given and those the environment gives, no
   * runner config (so that Beam's registry of the store modules' options alone parses them:
   * {@link BeamOptionsRegistry}).
   */
  PipelineOptions storeOptions(List<String> pipelineArgs, List<String> storePaths)
      throws UsageException {
    String[] args = StoreEnvironment.withStores(List.copyOf(pipelineArgs), storePaths,
        System.getenv(), RunnerConfig.resolveHome()).toArray(new String[0]);
    BeamOptionsRegistry.logUse();
    return PipelineOptionArgs.parse(args, PipelineOptions.class);
  }

  /**
   * Whether a job may run in this JVM without a Beam runner: no --runner, and no pipeline option
   * but a store's (how to reach S3 or HDFS), so the default, the DirectRunner, would run it.
   * {@link JobPlacement} asks, for every command, and then looks at the inputs.
   */
  boolean mayRunHere(List<String> pipelineArgs) {
    return runner == null && pipelineArgs.stream().allMatch(StoreOptionNames::isStoreOption);
  }

  /** A cluster job against a master that is not up fails late and obscurely; say it now. */
  private static void checkFlinkMasterReachable(PipelineOptions options, String[] args)
      throws UsageException {
    if (!options.getRunner().getSimpleName().equals("FlinkRunner")) {
      return;
    }
    String master = null;
    for (String a : args) {
      if (a.startsWith("--flinkMaster=")) {
        master = a.substring("--flinkMaster=".length());
      }
    }
    if (master == null || master.startsWith("[")) {
      return; // [local], [auto]: embedded
    }
    int colon = master.lastIndexOf(':');
    String host = colon > 0 ? master.substring(0, colon) : master;
    int port;
    try {
      port = colon > 0 ? Integer.parseInt(master.substring(colon + 1)) : 8081;
    } catch (NumberFormatException e) {
      throw new UsageException("--flinkMaster " + master + " has no valid port; give"
          + " HOST:PORT, e.g. 127.0.0.1:8081");
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2_000);
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageException("no Flink cluster answers at " + master
          + "; start the local one with scripts/flink-cluster.sh start");
    }
  }

  /** direct, flink (= flink-local), flink-cluster, a .properties file or a Beam runner name. */
  static final class RunnerName implements ITypeConverter<String> {
    @Override
    public String convert(String name) {
      if (name.endsWith("Runner")) {
        PipelineOptionArgs.checkRunner(name);
        return name;
      }
      try {
        load(name);
      } catch (UsageException e) {
        throw new TypeConversionException(e.getMessage());
      }
      return name;
    }

    static RunnerConfig load(String name) throws UsageException {
      try {
        return RunnerConfig.load(name.equals("flink") ? "flink-local" : name);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new UsageException(e.getMessage());
      }
    }
  }
}
