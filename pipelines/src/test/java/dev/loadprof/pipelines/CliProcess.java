package dev.loadprof.pipelines;

import dev.loadprof.cli.LoadprofCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The loadprof CLI in a JVM of its own, with the test's classpath and a chosen environment: what
 * a user's shell does, so the environment alone must reach the store; and a process can be
 * killed, or two run at once.
 */
final class CliProcess {
  record Result(int code, String output) {}

  private CliProcess() {}

  static Process start(Map<String, String> env, List<String> jvmProps, Path log, String... args)
      throws IOException {
    List<String> command = new ArrayList<>(List.of("java", "-Xmx512m",
        "-Dloadprof.home=" + LocalFlinkCluster.HOME));
    command.addAll(jvmProps);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        LoadprofCli.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    b.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("HADOOP_"));
    b.environment().putAll(env);
    return b.start();
  }

  static Result finish(Process p, Path log) throws IOException, InterruptedException {
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("loadprof timed out; see " + log);
    }
    return new Result(p.exitValue(), Files.readString(log));
  }

  static Result run(Map<String, String> env, Path log, String... args)
      throws IOException, InterruptedException {
    return finish(start(env, List.of(), log, args), log);
  }
}
