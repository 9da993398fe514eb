package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerConfigTest {

  @TempDir Path tempDir;

  @Test
  void directConfigParsesAsDirectRunnerOptions() {
    RunnerConfig config = RunnerConfig.load("direct");
    assertEquals("direct", config.name());
    DirectOptions options = parse(config.withUserArgs()).as(DirectOptions.class);
    assertEquals("DirectRunner", options.getRunner().getSimpleName());
    assertEquals(2, options.getTargetParallelism());
  }

  /**
   * A user's DirectRunner job runs without Beam's model checks (their copies of every element
   * ran an archive of a 1.6 GB trace out of heap); the tests' jobs run with them, as the build
   * sets loadprof.modelChecks.
   */
  @Test
  void modelChecksAreOffForUsersAndOnInTheTests() {
    String before = System.getProperty(RunnerConfig.MODEL_CHECKS_PROPERTY);
    try {
      System.clearProperty(RunnerConfig.MODEL_CHECKS_PROPERTY);
      DirectOptions users = parse(RunnerConfig.load("direct").withUserArgs())
          .as(DirectOptions.class);
      assertFalse(users.isEnforceImmutability());
      assertFalse(users.isEnforceEncodability());
      System.setProperty(RunnerConfig.MODEL_CHECKS_PROPERTY, "true");
      DirectOptions tests = parse(RunnerConfig.load("direct").withUserArgs())
          .as(DirectOptions.class);
      assertTrue(tests.isEnforceImmutability());
      assertTrue(tests.isEnforceEncodability());
      // the flag only turns on checks a config names: Flink's configs are left as they are
      assertEquals(RunnerConfig.load("flink-local").options().keySet().stream()
          .filter(k -> k.startsWith("enforce")).count(), 0);
    } finally {
      if (before == null) {
        System.clearProperty(RunnerConfig.MODEL_CHECKS_PROPERTY);
      } else {
        System.setProperty(RunnerConfig.MODEL_CHECKS_PROPERTY, before);
      }
    }
  }

  @Test
  void theBuildRunsTheTestsWithModelChecks() {
    assertEquals("true", System.getProperty(RunnerConfig.MODEL_CHECKS_PROPERTY),
        "the tests' DirectRunner jobs must keep Beam's model checks (pom.xml)");
  }

  @Test
  void flinkLocalConfigUsesEmbeddedFlink() {
    FlinkPipelineOptions options =
        parse(RunnerConfig.load("flink-local").withUserArgs()).as(FlinkPipelineOptions.class);
    assertEquals("FlinkRunner", options.getRunner().getSimpleName());
    assertEquals("[local]", options.getFlinkMaster());
    assertEquals(2, options.getParallelism());
    assertTrue(options.getObjectReuse());
    assertTrue(options.getFasterCopy());
  }

  @Test
  void flinkClusterConfigPointsAtLocalhostAndStagesTheJobJar() {
    RunnerConfig config = RunnerConfig.load("flink-cluster");
    FlinkPipelineOptions options = parse(config.withUserArgs()).as(FlinkPipelineOptions.class);
    assertTrue(options.getFlinkMaster().startsWith("127.0.0.1:"), options.getFlinkMaster());
    assertEquals(4, options.getParallelism());
    Path home = RunnerConfig.resolveHome();
    assertEquals(
        List.of(home.resolve("pipelines/target/loadprof-flink-job.jar").toString()),
        options.getFilesToStage());
  }

  @Test
  void userArgumentsOverrideConfigValues() {
    String[] args =
        RunnerConfig.load("flink-cluster")
            .withUserArgs("--parallelism=1", "--filesToStage=/tmp/a.jar,/tmp/b.jar", "--jobName=x");
    FlinkPipelineOptions options = parse(args).as(FlinkPipelineOptions.class);
    assertEquals(1, options.getParallelism());
    assertEquals(List.of("/tmp/a.jar", "/tmp/b.jar"), options.getFilesToStage());
    assertEquals("x", options.getJobName());
    // Config arguments come first; overridden keys are not repeated.
    assertEquals("--fasterCopy=true", args[0]);
    assertEquals(1, List.of(args).stream().filter(a -> a.startsWith("--parallelism=")).count());
  }

  @Test
  void bareFlagOverridesConfigValue() throws IOException {
    Path file = write("flags.properties", "runner=FlinkRunner\nobjectReuse=false\n");
    String[] args = RunnerConfig.load(file.toString()).withUserArgs("--objectReuse");
    assertArrayEquals(new String[] {"--runner=FlinkRunner", "--objectReuse"}, args);
    assertTrue(parse(args).as(FlinkPipelineOptions.class).getObjectReuse());
  }

  @Test
  void loadsAPathAndExpandsTheHomePlaceholder() throws IOException {
    Path file = write("custom.properties", "runner=DirectRunner\ntempLocation=${loadprof.home}/tmp\n");
    RunnerConfig config = RunnerConfig.load(file.toString(), tempDir);
    assertEquals("custom", config.name());
    assertEquals(file, config.source());
    assertEquals(
        List.of("--runner=DirectRunner", "--tempLocation=" + tempDir.resolve("tmp")), config.toArgs());
  }

  @Test
  void resolvesNamesAgainstAGivenHome() throws IOException {
    Files.createDirectories(tempDir.resolve("runner-configs"));
    Files.writeString(tempDir.resolve("runner-configs/mine.properties"), "runner=DirectRunner\n");
    assertEquals(List.of("--runner=DirectRunner"), RunnerConfig.load("mine", tempDir).toArgs());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> RunnerConfig.load("nope", tempDir));
    assertTrue(unknown.getMessage().contains("[mine]"), unknown.getMessage());
  }

  @Test
  void rejectsKeysThatAreNotOptionNames() throws IOException {
    Path file = write("bad.properties", "--runner=DirectRunner\n");
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> RunnerConfig.load(file.toString()));
    assertTrue(error.getMessage().contains("not a Beam option name"), error.getMessage());
  }

  @Test
  void expandArgsReplacesRunnerConfigArgument() {
    String[] args = RunnerConfig.expandArgs("--runnerConfig=flink-local", "--parallelism=3");
    FlinkPipelineOptions options = parse(args).as(FlinkPipelineOptions.class);
    assertEquals("[local]", options.getFlinkMaster());
    assertEquals(3, options.getParallelism());
    assertArrayEquals(new String[] {"--a=b"}, RunnerConfig.expandArgs("--a=b"));
  }

  private Path write(String name, String content) throws IOException {
    Path file = tempDir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  /** Strict Beam parsing: fails on option names no registered PipelineOptions interface knows. */
  private static PipelineOptions parse(String[] args) {
    return PipelineOptionsFactory.fromArgs(args).create();
  }
}
