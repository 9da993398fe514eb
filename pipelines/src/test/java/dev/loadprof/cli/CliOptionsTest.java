package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.pipelines.Fixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command line itself: every malformed option is exit 2 with one line that names it and no
 * Java, Jackson or Beam text; help and version of each command; short options, lists, Beam
 * options with a space, and "--".
 */
class CliOptionsTest {
  /** Text that only a Java class name, a stack trace or Jackson/Beam internals would produce. */
  private static final Pattern JAVA_TEXT = Pattern.compile("(?s).*(\\b(java|javax|org|com|dev)"
      + "\\.[a-z]+\\.|Exception|\\bat \\[Source|Cannot deserialize|PipelineOptions|\\.class\\b"
      + "|\\$\\{).*");

  @TempDir
  Path tmp;

  record Run(int exit, String out, String err) {}

  static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = LoadprofCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  static String phases() {
    return Fixture.file("/examples/phases.txt.gz").toString();
  }

  /** Bad arguments, and the option (or word) the message must name. */
  static Stream<Arguments> malformed() {
    String t = phases();
    return Stream.of(
        bad("--pid", "analyze", "--pid", "abc", t),
        bad("--pid", "analyze", "-p", "1599,x", t),
        bad("--pid", "analyze", "-p", "-5", t),
        bad("--pid", "analyze", "--pid=", t),
        bad("--tid", "analyze", "--tid", "x", t),
        bad("--tid", "analyze", "-t", "1601,-2", t),
        bad("--cpu", "analyze", "-C", "1-x", t),
        bad("--cpu", "analyze", "--cpu", "3-1", t),
        bad("--cpu", "analyze", "--cpu=", t),
        bad("--time", "analyze", "--time", "1234.5", t),
        bad("--time", "analyze", "--time", "2,1", t),
        bad("--time", "analyze", "--time", "10%/0", t),
        bad("--time", "analyze", "--time", "10%-x", t),
        bad("--time", "analyze", "--time=", t),
        bad("--comms", "analyze", "--comms", "(", t),
        bad("--tid", "archive", "-o", "a", "--tid", "1", t),
        bad("--window", "analyze", "--window", "fast", t),
        bad("--window", "analyze", "--window=0ms", t),
        bad("--window", "analyze", "--window", "1000s", t),
        bad("--load", "analyze", "--load", "3:1", t),
        bad("--load", "analyze", "--load", "x:y", t),
        bad("--load", "analyze", "--load=", t),
        bad("--comm", "analyze", "--comm", "(", t),
        bad("--comm", "analyze", "--comm=[a-", t),
        bad("--group-by", "analyze", "--group-by", "hosts", t),
        bad("--group-by", "analyze", "--group-by", "run:(", t),
        bad("--runner", "analyze", "--runner", "nope", t),
        bad("--runner", "analyze", "--runner=NopeRunner", t),
        bad("--frobnicate", "analyze", "--frobnicate=1", t),
        bad("--frobnicate", "analyze", "--frobnicate", "1", t),
        bad("--frobnicate", "--frobnicate", "analyze", t),
        bad("--windowMs", "analyze", "--windowMs=5", t),
        bad("--parallelism", "analyze", "--parallelism", "abc", t),
        bad("--parallelism", "analyze", "--parallelism=2.5", t),
        bad("--parallelism", "analyze", t, "--parallelism"),
        bad("--parallelism", "analyze", "--parallelism=2", "--parallelism=3", t),
        bad("--maxBundleSize", "analyze", "--maxBundleSize=big", t),
        bad("--objectReuse", "analyze", "--objectReuse=maybe", t),
        bad("--flinkMaster", "analyze", "--runner", "flink-cluster",
            "--flinkMaster=127.0.0.1:notaport", t),
        bad("--out", "analyze", t, "--out"),
        bad("--out", "analyze", "-o"),
        bad("--out", "analyze", "--out=", t),
        bad("--event", "analyze", t, "-e"),
        bad("-x", "analyze", "-x", t),
        bad("--nights", "analyze", "--nights", "2026-13-01", t),
        bad("--nights", "analyze", "--nights", "2026-11-07..2026-11-01", t),
        bad("--nights", "analyze", "--nights", "2026-11-20", t), // no archive given
        bad("--night", "archive", "-o", "a", "--night", "20.11.2026", t),
        bad("--night", "analyze", "--night", "2026-11-20", t),
        bad("--nights", "archive", "-o", "a", "--nights", "2026-11-20", t),
        bad("--debris-grace-minutes", "archive", "-o", "a", "--debris-grace-minutes=-1", t),
        bad("--pid", "archive", "-o", "a", "--pid", "1", t),
        bad("--out", "archive", t),
        bad("TRACE", "analyze", "-o", "x"),
        bad("analyse", "analyse", t));
  }

  private static Arguments bad(String named, String... args) {
    return Arguments.of(named, args);
  }

  @ParameterizedTest(name = "{1} names {0}")
  @MethodSource("malformed")
  void malformedOptionExitsTwoWithOneLineNamingIt(String named, String[] args) {
    Run run = cli(args);
    String what = String.join(" ", args) + " -> " + run.err();
    assertEquals(2, run.exit(), what);
    assertEquals(1, run.err().strip().lines().count(), what);
    assertThat(what, run.err(), startsWith("loadprof: "));
    assertThat(what, run.err(), containsString(named.equals("TRACE") ? "no trace given" : named));
    assertThat(what, run.err(), not(matchesPattern(JAVA_TEXT)));
  }

  @Test
  void versionComesFromTheBuild() {
    for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"},
        new String[] {"analyze", "--version"})) {
      Run run = cli(args);
      assertEquals(0, run.exit(), run.err());
      assertThat(run.out(), matchesPattern("(?s)loadprof \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n.*"));
    }
  }

  @Test
  void eachCommandHasItsOwnHelp() {
    Run archive = cli("archive", "--help");
    assertEquals(0, archive.exit(), archive.err());
    assertThat(archive.out(), containsString("loadprof archive -o ARCHIVE [options] TRACE..."));
    assertThat(archive.out(), containsString("-o, --out=ARCHIVE"));
    assertThat(archive.out(), containsString("-e, --event=NAME"));
    assertThat(archive.out(), not(containsString("--pid")));
    Run analyze = cli("analyze", "--help");
    assertEquals(0, analyze.exit(), analyze.err());
    assertThat(analyze.out(), containsString("-p, --pid=PID[,PID...]"));
    assertThat(analyze.out(), containsString("--parallelism 2"));
    for (Run run : List.of(archive, analyze)) {
      assertEquals("", run.err());
      assertThat(run.out(), containsString(ExitCode.DOCUMENTED));
    }
  }

  @Test
  void pipelineOptionsAreTakenOutWithTheirValues() throws UsageException {
    PipelineOptionArgs.Split split = PipelineOptionArgs.split(LoadprofCli.commandLine(),
        new String[] {"analyze", "--parallelism", "2", "-o", "--odd-dir", "--maxBundleSize=5",
            "--objectReuse", "-p", "1,2", "t.gz", "--", "--parallelism", "-x.gz"});
    assertEquals(List.of("--parallelism=2", "--maxBundleSize=5", "--objectReuse"),
        split.pipelineArgs());
    assertEquals(List.of("analyze", "-o", "--odd-dir", "-p", "1,2", "t.gz", "--",
        "--parallelism", "-x.gz"), List.of(split.loadprofArgs()));
  }

  /** -o, -p a,b, -e, a Beam option with a space, and "--", in one real run. */
  @Test
  void shortOptionsListsAndPassThroughWorkEndToEnd() throws Exception {
    Path out = tmp.resolve("short-out");
    Run run = cli("analyze", "-o", out.toString(), "-p", "1599,1024", "-e", "cpu-clock",
        "--targetParallelism", "2", "--", phases());
    assertEquals(0, run.exit(), run.err());
    assertThat(run.out(), containsString("Outputs in " + out + "/"));
    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    Set<Integer> pids = new TreeSet<>();
    for (JsonNode p : summary.get("runs").get(0).get("processes")) {
      pids.add(p.get("pid").asInt());
    }
    assertEquals(Set.of(1024, 1599), pids, "-p keeps exactly the listed processes");
    assertTrue(Files.exists(out.resolve("profile.pb.gz")));
  }

  @Test
  void completionScriptCoversEveryCommandAndOption() {
    String script = CompletionScript.script();
    List<String> missing = new ArrayList<>();
    for (String word : List.of("analyze", "archive", "--pid", "--tid", "--cpu", "--time",
        "--comms", "--out", "--window", "--event",
        "--group-by", "--runner", "--verbose", "--debug")) {
      if (!script.contains(word)) {
        missing.add(word);
      }
    }
    assertEquals(List.of(), missing);
  }

  /**
   * The pass-through options loadprof knows without starting Beam's options factory are the
   * ones the factory registers (loadprof's own interfaces, registered as jobs run, aside).
   */
  @Test
  void passThroughOptionsAreThoseBeamsFactoryRegisters() {
    List<Class<? extends org.apache.beam.sdk.options.PipelineOptions>> beams = new ArrayList<>();
    for (Class<? extends org.apache.beam.sdk.options.PipelineOptions> c
        : org.apache.beam.sdk.options.PipelineOptionsFactory.getRegisteredOptions()) {
      if (!c.getName().startsWith("dev.loadprof.")) {
        beams.add(c);
      }
    }
    assertEquals(Set.copyOf(beams), Set.copyOf(PipelineOptionArgs.registeredInterfaces()));
    assertEquals(PipelineOptionArgs.optionTypes(beams),
        PipelineOptionArgs.optionTypes(PipelineOptionArgs.registeredInterfaces()));
    assertTrue(PipelineOptionArgs.optionTypes(beams).containsKey("parallelism"));
  }
}
