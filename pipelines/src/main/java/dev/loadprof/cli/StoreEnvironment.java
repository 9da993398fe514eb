package dev.loadprof.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Beam arguments that let s3:// and hdfs:// paths work from the standard places alone. S3: the
 * AWS SDK's own chain finds credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, the profile)
 * and the region (AWS_REGION, the profile); this adds the endpoint from AWS_ENDPOINT_URL, which
 * Beam's options do not read, and path-style addressing for it. HDFS: Beam reads
 * HADOOP_CONF_DIR (or YARN_CONF_DIR)/core-site.xml itself; without either, the NameNode of the
 * first hdfs:// path is used. On a Flink cluster the store jar is staged with the job.
 * Explicit Beam options (--endpoint=..., --s3ClientFactoryClass=...) win.
 */
final class StoreEnvironment {
  static final String ENDPOINT_VARIABLE = "AWS_ENDPOINT_URL";
  static final String PATH_STYLE_FACTORY = "dev.loadprof.stores.PathStyleS3ClientBuilderFactory";
  static final String STORES_JOB_JAR = "stores/target/loadprof-stores-job.jar";

  private StoreEnvironment() {}

  /** The inputs and the output of a job: the paths whose store it must reach. */
  static List<String> paths(List<String> inputs, String out) {
    List<String> paths = new ArrayList<>(inputs);
    if (out != null) {
      paths.add(out);
    }
    return paths;
  }

  /** Whether Beam's S3 and HDFS filesystems (loadprof's stores module) are on the classpath. */
  static boolean onClasspath() {
    try {
      Class.forName("org.apache.beam.sdk.io.aws2.s3.S3FileSystem", false,
          StoreEnvironment.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * @param beamArgs the job's pipeline arguments (the runner config, then the user's)
   * @param paths the job's inputs and output
   */
  static List<String> withStores(List<String> beamArgs, List<String> paths,
      Map<String, String> env, Path home) throws UsageException {
    boolean s3 = paths.stream().anyMatch(p -> p.startsWith("s3://"));
    boolean hdfs = paths.stream().anyMatch(p -> p.startsWith("hdfs://"));
    if (!s3 && !hdfs) {
      return beamArgs;
    }
    checkOnClasspath(s3 ? "org.apache.beam.sdk.io.aws2.s3.S3FileSystem"
        : "org.apache.beam.sdk.io.hdfs.HadoopFileSystem", s3 ? "s3://" : "hdfs://");
    List<String> args = new ArrayList<>();
    for (String a : beamArgs) {
      if (a.startsWith("--filesToStage=")) {
        Path jar = home.resolve(STORES_JOB_JAR);
        if (!Files.isRegularFile(jar)) {
          throw new UsageException(jar + " is missing; build it with mvn -B install -DskipTests");
        }
        a = a + "," + jar; // the cluster's TaskManagers need the store modules too
      }
      args.add(a);
    }
    if (hdfs && !given(args, "hdfsConfiguration") && blank(env.get("HADOOP_CONF_DIR"))
        && blank(env.get("YARN_CONF_DIR"))) {
      // Beam registers hdfs:// only with a Hadoop configuration; without HADOOP_CONF_DIR the
      // NameNode of the first hdfs:// path is the default filesystem.
      String first = paths.stream().filter(p -> p.startsWith("hdfs://")).findFirst().get();
      int slash = first.indexOf('/', "hdfs://".length());
      String nameNode = slash < 0 ? first : first.substring(0, slash);
      args.add("--hdfsConfiguration=[{\"fs.defaultFS\": \"" + nameNode + "\"" + hdfsLimits(env)
          + "}]");
    }
    if (s3) {
      String endpoint = env.get(ENDPOINT_VARIABLE);
      if (endpoint != null && !endpoint.isBlank() && !given(args, "endpoint")) {
        args.add("--endpoint=" + endpoint);
      }
      if (!given(args, "s3ClientFactoryClass")) {
        args.add("--s3ClientFactoryClass=" + PATH_STYLE_FACTORY);
      }
    }
    return args;
  }

  /**
   * Hadoop client settings that bound a wait for HDFS, as S3's are bounded (stores.StoreWait):
   * a call without an answer for $LOADPROF_STORE_SILENCE_S (20 s) is given up, a connection
   * after 5 s, with 2 retries; Hadoop's own defaults wait up to 15 minutes for a NameNode that
   * takes connections and never answers. Only in the configuration loadprof makes: with
   * HADOOP_CONF_DIR, the cluster's own settings apply.
   */
  static String hdfsLimits(Map<String, String> env) {
    int silenceS = 20;
    try {
      silenceS = Math.max(1, Integer.parseInt(env.getOrDefault("LOADPROF_STORE_SILENCE_S", "20")
          .trim()));
    } catch (NumberFormatException e) {
      // the default
    }
    String ms = Integer.toString(silenceS * 1000);
    return ", \"ipc.client.connect.timeout\": \"" + Math.min(5000, silenceS * 1000) + "\","
        + " \"ipc.client.connect.max.retries\": \"2\","
        + " \"ipc.client.connect.max.retries.on.timeouts\": \"2\","
        + " \"ipc.client.rpc-timeout.ms\": \"" + ms + "\", \"ipc.ping.interval\": \"" + ms
        + "\", \"dfs.client.socket-timeout\": \"" + ms + "\"";
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  private static boolean given(List<String> args, String option) {
    return args.stream().anyMatch(a -> a.startsWith("--" + option + "="));
  }

  private static void checkOnClasspath(String className, String scheme) throws UsageException {
    try {
      Class.forName(className, false, StoreEnvironment.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new UsageException(scheme + " paths need loadprof's stores module on the classpath;"
          + " run ./loadprof (it adds stores/target/lib-stores when a path needs it)");
    }
  }
}
