package dev.loadprof.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ClaimDriver} (or the CLI) in a JVM of its own, with the test's classpath: POSIX locks
 * are per process, and a process can be killed or sent SIGINT. perl restores SIGINT's default
 * action first: a test JVM started from a background job inherits SIGINT ignored.
 */
final class ChildJvm {
  record Result(int exit, String stdout, String stderr, long pid) {}

  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ChildJvm(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code mainClass ARGS} with the system properties {@code props}; logs in logs/NAME.*. */
  static ChildJvm start(Path logs, String name, List<String> props, Class<?> mainClass,
      String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("perl", "-e",
        "$SIG{INT} = 'DEFAULT'; exec @ARGV",
        ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"));
    command.addAll(props);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(List.of(args));
    Files.createDirectories(logs);
    Path out = logs.resolve(name + ".out");
    Path err = logs.resolve(name + ".err");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start();
    return new ChildJvm(p, out, err);
  }

  long pid() {
    return process.pid();
  }

  /** Sends SIGINT, as Ctrl-C does. */
  void interrupt() throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
  }

  Result finish() throws IOException, InterruptedException {
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError("timed out; see " + stderr);
    }
    return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
        Files.readString(stderr, StandardCharsets.UTF_8), process.pid());
  }
}
