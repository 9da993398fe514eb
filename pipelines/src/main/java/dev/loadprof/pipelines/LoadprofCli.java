package dev.loadprof.pipelines;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.report.GroupBy;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The {@code loadprof} command line. Exit codes: 0 success, 1 the job failed, 2 bad usage or bad
 * input (with a one-line message that says what to do).
 */
public final class LoadprofCli {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int BAD_INPUT = 2;

  /** CLI option name -> Beam option name, for options given as "--name value". */
  private static final Map<String, String> VALUE_OPTIONS = new LinkedHashMap<>();

  static {
    VALUE_OPTIONS.put("out", "out");
    VALUE_OPTIONS.put("window", "windowMs");
    VALUE_OPTIONS.put("pid", "pid");
    VALUE_OPTIONS.put("comm", "comm");
    VALUE_OPTIONS.put("load", "load");
    VALUE_OPTIONS.put("event", "event");
    VALUE_OPTIONS.put("group-by", "groupBy");
    VALUE_OPTIONS.put("runner", "runner");
    // stores (issue 12): partitions of an archive
    VALUE_OPTIONS.put("night", "night");
    VALUE_OPTIONS.put("nights", "nights");
    VALUE_OPTIONS.put("hosts", "hosts");
  }

  /** Thrown for bad usage or bad input; its message is shown as is. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      if (args.length == 0 || isHelp(args[0])) {
        out.print(usage());
        return args.length == 0 ? BAD_INPUT : OK;
      }
      String command = args[0];
      String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
      if (command.equals("analyze")) {
        return analyze(rest, out, err);
      }
      if (command.equals("archive")) {
        return ArchiveCommand.run(rest, out, err);
      }
      throw new UsageException("unknown command '" + command + "'; run loadprof --help");
    } catch (UsageException e) {
      err.println("loadprof: " + e.getMessage());
      return BAD_INPUT;
    } catch (RuntimeException e) {
      var conflict = dev.loadprof.archive.ArchiveRunConflictException.find(e);
      if (conflict != null) { // another trace won the run id: bad input, exit 2
        err.println("loadprof: " + conflict.getMessage());
        return BAD_INPUT;
      }
      ArchiveCorruptException badArchive = ArchiveCorruptException.find(e);
      if (badArchive != null) { // bad input found while reading: still exit 2, one line
        err.println("loadprof: " + badArchive.getMessage());
        return BAD_INPUT;
      }
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      err.println("loadprof: the job failed: " + root);
      return FAILED;
    }
  }

  private static int analyze(String[] args, PrintStream out, PrintStream err)
      throws UsageException {
    for (String a : args) {
      if (isHelp(a)) {
        out.print(usage());
        return OK;
      }
    }
    List<String> inputs = new ArrayList<>();
    List<String> beamArgs = withRunnerConfig(translate(args, inputs));
    if (inputs.isEmpty()) {
      throw new UsageException("no trace given; usage: loadprof analyze [options] TRACE...");
    }
    beamArgs = StoreEnvironment.withStores(beamArgs, storePaths(inputs, beamArgs), System.getenv(),
        RunnerConfig.resolveHome());
    AnalyzeOptions options = parseOptions(beamArgs);
    validate(options);
    checkFlinkMasterReachable(options);
    FileSystems.setDefaultPipelineOptions(options);
    // Archive directories (loadprof archive) may stand among the traces.
    ArchiveInputs.Split split = ArchiveInputs.split(inputs);
    boolean windowGiven = beamArgs.stream().anyMatch(a -> a.startsWith("--windowMs="));
    RunSelection selection;
    try {
      selection = RunSelection.parse(options.getNights(), options.getHosts());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (!selection.isAll() && split.archives().isEmpty()) {
      throw new UsageException("--nights and --hosts select runs of archives; no archive given");
    }
    Map<String, String> archivedRuns = ArchiveInputs.check(split.archives(), selection,
        options.getEvent(),
        windowGiven ? options.getWindowMs() * 1_000_000L : null);
    List<String> files = split.traces().isEmpty() ? List.of() : expand(split.traces());
    ArchiveInputs.checkNoClash(files, archivedRuns);
    options.setTraces(String.join(",", files));
    PipelineResult result = AnalyzePipeline.run(files, split.archives(), options);
    printSummary(options.getOut(), out);
    long unusable = counter(result, "unusable_runs");
    if (unusable > 0) {
      for (String reason : unusableReasons(options.getOut())) {
        err.println("loadprof: " + reason);
      }
      err.println("loadprof: " + unusable + " of " + (files.size() + archivedRuns.size())
          + " traces could not be analyzed (reasons above and in " + options.getOut()
          + "/summary.json)");
      return BAD_INPUT;
    }
    return OK;
  }

  /** The inputs and the --out of a job: the paths whose store it must reach. */
  static List<String> storePaths(List<String> inputs, List<String> beamArgs) {
    List<String> paths = new ArrayList<>(inputs);
    for (String a : beamArgs) {
      if (a.startsWith("--out=")) {
        paths.add(a.substring("--out=".length()));
      }
    }
    return paths;
  }

  /** "--name value" and "--name=value" for CLI options; anything else starting "--" goes to Beam. */
  static List<String> translate(String[] args, List<String> traces) throws UsageException {
    List<String> beamArgs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        traces.add(a);
        continue;
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      String beamName = VALUE_OPTIONS.get(name);
      if (beamName == null) {
        beamArgs.add(a); // a Beam or runner option, e.g. --targetParallelism=2
        continue;
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          throw new UsageException("--" + name + " needs a value; run loadprof --help");
        }
        value = args[++i];
      }
      if (name.equals("window")) {
        value = Long.toString(parseDurationMs(value));
      }
      beamArgs.add("--" + beamName + "=" + value);
    }
    return beamArgs;
  }

  /** Beam arguments (after {@link #translate}) as options; a bad one is bad usage. */
  static AnalyzeOptions parseOptions(List<String> beamArgs) throws UsageException {
    try {
      return PipelineOptionsFactory.fromArgs(beamArgs.toArray(new String[0]))
          .as(AnalyzeOptions.class);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage() + "; run loadprof --help");
    }
  }

  /**
   * "--runner NAME" picks a config of runner-configs/ (direct, flink = flink-local,
   * flink-cluster, or a .properties path); its options go first so that the user's own win.
   * A Beam runner class name (--runner=FlinkRunner) passes through unchanged.
   */
  static List<String> withRunnerConfig(List<String> beamArgs) throws UsageException {
    String configName = "direct";
    List<String> rest = new ArrayList<>();
    for (String a : beamArgs) {
      if (a.startsWith("--runner=") && !a.endsWith("Runner")) {
        configName = a.substring("--runner=".length());
      } else {
        rest.add(a);
      }
    }
    if (configName.equals("flink")) {
      configName = "flink-local";
    }
    try {
      return List.of(RunnerConfig.load(configName).withUserArgs(rest.toArray(new String[0])));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--runner: " + e.getMessage());
    }
  }

  /** A cluster job against a master that is not up fails late and obscurely; say it now. */
  private static void checkFlinkMasterReachable(AnalyzeOptions options) throws UsageException {
    if (!options.getRunner().getSimpleName().equals("FlinkRunner")) {
      return;
    }
    String master = options.as(org.apache.beam.runners.flink.FlinkPipelineOptions.class)
        .getFlinkMaster();
    if (master == null || master.startsWith("[")) {
      return; // [local], [auto]: embedded
    }
    int colon = master.lastIndexOf(':');
    String host = colon > 0 ? master.substring(0, colon) : master;
    int port = colon > 0 ? Integer.parseInt(master.substring(colon + 1)) : 8081;
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(host, port), 2_000);
    } catch (IOException e) {
      throw new UsageException("no Flink cluster answers at " + master
          + "; start the local one with scripts/flink-cluster.sh start");
    }
  }

  /** "1s", "250ms", "1.5s" or a number of milliseconds. */
  static long parseDurationMs(String text) throws UsageException {
    try {
      double ms;
      if (text.endsWith("ms")) {
        ms = Double.parseDouble(text.substring(0, text.length() - 2));
      } else if (text.endsWith("s")) {
        ms = Double.parseDouble(text.substring(0, text.length() - 1)) * 1000;
      } else {
        ms = Double.parseDouble(text);
      }
      if (ms < 1 || ms > 500_000) {
        throw new UsageException("--window must be between 1ms and 500s, got '" + text + "'");
      }
      return Math.round(ms);
    } catch (NumberFormatException e) {
      throw new UsageException("--window takes a duration such as 1s or 250ms, got '" + text
          + "'");
    }
  }

  private static void validate(AnalyzeOptions o) throws UsageException {
    if (o.getLoad() != null) {
      try {
        LoadRange.parse(o.getLoad());
      } catch (IllegalArgumentException e) {
        throw new UsageException("--load: " + e.getMessage());
      }
    }
    if (o.getComm() != null) {
      try {
        Pattern.compile(o.getComm());
      } catch (PatternSyntaxException e) {
        throw new UsageException("--comm is not a valid regular expression: "
            + e.getDescription() + " in '" + o.getComm() + "'");
      }
    }
    try {
      GroupBy.parse(o.getGroupBy());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage() + "; run loadprof --help");
    }
    if (o.getWindowMs() < 1) {
      throw new UsageException("--window must be at least 1ms");
    }
  }

  /** Expands globs, checks every input exists, and that no two inputs have the same run id. */
  static List<String> expand(List<String> traces) throws UsageException {
    List<String> files = new ArrayList<>();
    Map<String, String> byRunId = new HashMap<>();
    for (String spec : traces) {
      if (isLocalLiteral(spec) && !java.nio.file.Files.exists(java.nio.file.Paths.get(spec))) {
        // Checked here: Beam's local match of a missing path walks the tree from its nearest
        // existing parent, which for "/missing.txt.gz" is the whole disk.
        throw new UsageException("no such trace: " + spec
            + " (give perf script output, plain or .gz)");
      }
      MatchResult match;
      try {
        match = FileSystems.match(spec);
      } catch (IOException | IllegalArgumentException e) {
        throw new UsageException("cannot read " + spec + ": " + e.getMessage());
      }
      List<MatchResult.Metadata> found;
      try {
        found = match.status() == MatchResult.Status.OK ? match.metadata() : List.of();
      } catch (IOException e) {
        found = List.of();
      }
      if (found.isEmpty()) {
        throw new UsageException("no such trace: " + spec
            + " (give perf script output, plain or .gz)");
      }
      for (MatchResult.Metadata m : found) {
        if (m.resourceId().isDirectory()) {
          throw new UsageException(spec + " is a directory; give trace files");
        }
        String file = m.resourceId().toString();
        String runId = ParseTraces.runIdOf(file);
        String previous = byRunId.put(runId, file);
        if (previous != null && !previous.equals(file)) {
          throw new UsageException("two traces have the run id '" + runId + "': " + previous
              + " and " + file + "; rename one");
        }
        if (previous == null) {
          files.add(file);
        }
      }
    }
    return files;
  }

  private static void printSummary(String outDir, PrintStream out) {
    ResourceId file = FileSystems.matchNewResource(outDir, true)
        .resolve(WriteReports.CONSOLE_SUMMARY_FILE, StandardResolveOptions.RESOLVE_FILE);
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      out.print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      List<String> names = new ArrayList<>(List.of("profile.pb.gz (go tool pprof)",
          "histogram.txt", "functions.txt", "flame.folded", "summary.json"));
      for (String many : List.of("runs.txt", "groups.txt")) {
        if (exists(outDir, many)) {
          names.add(many);
        }
      }
      out.println("Outputs in " + outDir + "/: " + String.join(", ", names));
    } catch (IOException e) {
      out.println("(no summary written: " + e.getMessage() + ")");
    }
  }

  /** The one-line reasons of the unusable runs, as written to summary.json. */
  private static List<String> unusableReasons(String outDir) {
    List<String> reasons = new ArrayList<>();
    ResourceId file = FileSystems.matchNewResource(outDir, true)
        .resolve("summary.json", StandardResolveOptions.RESOLVE_FILE);
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      com.fasterxml.jackson.databind.JsonNode root =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
      for (com.fasterxml.jackson.databind.JsonNode run : root.path("runs")) {
        for (com.fasterxml.jackson.databind.JsonNode w : run.path("warnings")) {
          if (w.asText().startsWith("UNUSABLE: ")) {
            reasons.add(w.asText().substring("UNUSABLE: ".length()));
          }
        }
      }
    } catch (IOException e) {
      reasons.add("(could not read " + file + ": " + e.getMessage() + ")");
    }
    return reasons;
  }

  /** A local path with no glob characters. */
  static boolean isLocalLiteral(String spec) {
    return !spec.contains("://") && spec.chars().noneMatch(c -> "*?[{".indexOf(c) >= 0);
  }

  private static boolean exists(String dir, String name) {
    try {
      ResourceId file = FileSystems.matchNewResource(dir, true)
          .resolve(name, StandardResolveOptions.RESOLVE_FILE);
      if ("file".equals(file.getScheme())) {
        return java.nio.file.Files.exists(java.nio.file.Paths.get(file.toString()));
      }
      return FileSystems.match(file.toString()).status() == MatchResult.Status.OK;
    } catch (IOException e) {
      return false;
    }
  }

  private static long counter(PipelineResult result, String name) {
    try {
      MetricQueryResults metrics = result.metrics().queryMetrics(MetricsFilter.builder()
          .addNameFilter(MetricNameFilter.named("loadprof", name)).build());
      long sum = 0;
      for (MetricResult<Long> c : metrics.getCounters()) {
        Long v = c.getAttempted();
        sum += v == null ? 0 : v;
      }
      return sum;
    } catch (UnsupportedOperationException e) {
      return 0;
    }
  }

  private static boolean isHelp(String a) {
    return a.equals("--help") || a.equals("-h") || a.equals("help");
  }

  /** The help text, with every option's description taken from AnalyzeOptions. */
  static String usage() {
    StringBuilder b = new StringBuilder();
    b.append("loadprof: real-time profiles from perf traces. Each CPU sample of a process is\n")
        .append("weighted period/load, where load = how many of its threads were on a CPU then.\n\n")
        .append("Usage:\n")
        .append("  loadprof analyze [options] TRACE...   analyze perf script traces (plain or .gz)\n")
        .append("                                        and/or archives made by loadprof archive\n")
        .append("  loadprof archive --out ARCHIVE [--window D] [--event E] TRACE...\n")
        .append("                                        parse traces once into an Avro archive;\n")
        .append("                                        traces already in it are skipped\n")
        .append("  loadprof --help                       this text\n\n")
        .append("Record a trace:\n")
        .append("  perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o X.data -- CMD\n")
        .append("  perf script -i X.data -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso \\\n")
        .append("      --ns --show-task-events | gzip > X.txt.gz\n\n")
        .append("Options of analyze:\n");
    Map<String, String> reverse = new HashMap<>();
    VALUE_OPTIONS.forEach((cli, beam) -> reverse.put(beam, cli));
    List<Method> getters = new ArrayList<>();
    for (String beamName : VALUE_OPTIONS.values()) {
      if (beamName.equals("runner")) {
        continue; // Beam's own option; loadprof's meaning of it is documented below
      }
      try {
        getters.add(AnalyzeOptions.class.getMethod(
            "get" + Character.toUpperCase(beamName.charAt(0)) + beamName.substring(1)));
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("no option " + beamName, e);
      }
    }
    for (Method m : getters) {
      String beamName = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
      String cli = reverse.getOrDefault(beamName, beamName);
      Description d = m.getAnnotation(Description.class);
      org.apache.beam.sdk.options.Default.String ds =
          m.getAnnotation(org.apache.beam.sdk.options.Default.String.class);
      org.apache.beam.sdk.options.Default.Long dl =
          m.getAnnotation(org.apache.beam.sdk.options.Default.Long.class);
      String def = ds != null ? ds.value() : dl != null ? Long.toString(dl.value()) : null;
      String arg = cli.equals("window") ? "DURATION"
          : cli.equals("group-by") ? "SPEC" : cli.toUpperCase();
      b.append(String.format("  --%-8s %-9s %s%s%n", cli, arg,
          d == null ? "" : d.value(), def == null ? "" : " Default: "
              + (cli.equals("window") ? def + "ms" : def) + "."));
    }
    b.append(String.format("  --%-8s %-9s %s%n", "runner", "NAME", "Where the job runs: direct"
        + " (default, in this JVM), flink (embedded Flink), flink-cluster (the local cluster"
        + " of scripts/flink-cluster.sh), or a .properties file; see runner-configs/."));
    b.append("\nS3 and HDFS: TRACE, ARCHIVE and --out may be s3://BUCKET/... or hdfs://HOST:PORT/...\n")
        .append("paths. S3 credentials and region come from the AWS SDK's environment variables\n")
        .append("(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION) or profile; AWS_ENDPOINT_URL\n")
        .append("picks another S3 server, addressed path-style, e.g. a local one:\n")
        .append("  AWS_ENDPOINT_URL=http://127.0.0.1:9090 loadprof archive --out s3://b/arch T.txt.gz\n")
        .append("HDFS configuration comes from HADOOP_CONF_DIR (core-site.xml, hdfs-site.xml).\n")
        .append("Archives: analyze --nights 2026-11-20,2026-11-01..2026-11-07 --hosts web1,web2\n")
        .append("reads only those runs; archive --night YYYY-MM-DD sets their night.\n");
    b.append("\nAny other --name=value is passed to Apache Beam (e.g. --targetParallelism=2).\n")
        .append("Exit codes: 0 success, 1 the job failed, 2 bad usage or bad input.\n");
    return b.toString();
  }
}
