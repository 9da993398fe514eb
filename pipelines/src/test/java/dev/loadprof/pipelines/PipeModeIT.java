package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import dev.loadprof.testtools.RequiredTools.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code perf record -o - ... -- PROGRAM | loadprof analyze -} in a shell, as a user types it:
 * the live pipe is analyzed as perf writes it, like the same stream saved to a file and decoded
 * by perf script; the program and perf end normally, also when loadprof refuses the job at once.
 */
class PipeModeIT {
  @TempDir static Path dir;
  static Path mixed;

  @BeforeAll
  static void buildWorkload() throws Exception {
    RequiredTools.require(Tool.PERF, Tool.MAKE, Tool.GCC);
    RequiredTools.requireRoot("perf record -a with sched tracepoints needs it");
    Path workloads = dir.resolve("wl");
    assertEquals(0, sh("cp -r '" + RequiredTools.workloads() + "' '" + workloads + "' && make -s"
        + " -C '" + workloads + "'"));
    mixed = workloads.resolve("mixed");
  }

  /**
   * The live pipe, with a heap of 256 MiB, gives the functions that perf script gives on the
   * same stream saved by tee (>= 99.5 % of real time on the same names); perf, the program and
   * loadprof exit 0.
   */
  @Test
  void aLivePipeIsAnalyzedLikeItsSavedStream() throws Exception {
    Path saved = dir.resolve("saved.data");
    Path live = dir.resolve("live");
    String statuses = pipeline(mixed + " 60 2", "tee '" + saved + "' | " + loadprof("-Xmx256m")
        + " analyze -q --comm mixed -o '" + live + "' -", "live");
    assertEquals("0 0 0", statuses, "perf, tee and loadprof; see " + dir.resolve("live.log"));
    assertEquals("0", Files.readString(dir.resolve("live.rc")).strip(), "the program's exit");

    Cli script = E2e.cli("analyze", "-q", "--comm", "mixed", "--perf-data-reader", "perf-script",
        "-o",
        dir.resolve("script").toString(), saved.toString());
    assertEquals(0, script.exit(), script.stderr());
    Map<String, Double> fromPipe = realShares(live.resolve("functions.txt"));
    Map<String, Double> fromScript = realShares(dir.resolve("script/functions.txt"));
    assertTrue(fromPipe.containsKey("parallel_section"), fromPipe.toString());
    double same = 0;
    for (Map.Entry<String, Double> e : fromPipe.entrySet()) {
      same += Math.min(e.getValue(), fromScript.getOrDefault(e.getKey(), 0.0));
    }
    System.out.printf("live pipe vs perf script on the saved stream: %.2f %% of real time on the"
        + " same functions%n", same);
    assertThat(fromPipe + "\n" + fromScript, same, greaterThanOrEqualTo(99.5));
  }

  /** A bad option is refused (exit 2) and the pipe still read: perf and the program exit 0. */
  @Test
  void aRefusedJobLetsPerfAndTheProgramFinish() throws Exception {
    String statuses = pipeline(mixed + " 40 2", loadprof("-Xmx256m")
        + " analyze --no-such-option -o '" + dir.resolve("refused") + "' -", "refused");
    assertEquals("0 2", statuses, "perf and loadprof; see " + dir.resolve("refused.log"));
    assertEquals("0", Files.readString(dir.resolve("refused.rc")).strip(), "the program's exit");
    assertThat(Files.readString(dir.resolve("refused.log")), containsString("--no-such-option"));
  }

  /**
   * Runs {@code perf record -o - ... -- sh -c 'PROGRAM; echo $? > NAME.rc' | CONSUMER} in bash;
   * returns the pipeline's exit statuses, space-separated. Output goes to NAME.log.
   */
  private static String pipeline(String program, String consumer, String name)
      throws Exception {
    Path rc = dir.resolve(name + ".rc");
    Path statuses = dir.resolve(name + ".statuses");
    String perf = "perf record -q -o - -k mono -a -g -e cpu-clock -e sched:sched_switch -- sh -c '"
        + program + " >&2; echo $? > " + rc + "'";
    assertEquals(0, sh(perf + " | " + consumer + "; echo ${PIPESTATUS[*]} > '" + statuses + "'",
        dir.resolve(name + ".log")));
    return Files.readString(statuses).strip();
  }

  /** The packaged CLI (as the launcher runs it) with {@code heap}. */
  private static String loadprof(String heap) {
    Path target = RecordIT.repoRoot().resolve("pipelines/target");
    return "'" + ProcessHandle.current().info().command().orElse("java") + "' " + heap + " -cp '"
        + target.resolve("loadprof.jar") + ":" + target.resolve("lib") + "/*' "
        + "dev.loadprof.cli.LoadprofCli";
  }

  /** The first table of functions.txt (the selected process's): function to flat real %. */
  static Map<String, Double> realShares(Path functions) throws Exception {
    Map<String, Double> shares = new LinkedHashMap<>();
    boolean inTable = false;
    for (String line : Files.readAllLines(functions)) {
      String[] cols = line.trim().split("\\s+", 6);
      if (cols[0].equals("flat%")) {
        inTable = true;
      } else if (inTable && cols.length == 6 && cols[0].endsWith("%")) {
        shares.merge(cols[5], Double.parseDouble(cols[0].replace("%", "")), Double::sum);
      } else if (inTable) {
        break;
      }
    }
    return shares;
  }

  private static int sh(String command) throws Exception {
    return sh(command, dir.resolve("sh.log"));
  }

  private static int sh(String command, Path log) throws Exception {
    Process p = new ProcessBuilder(List.of("bash", "-c", command)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "timed out: " + command);
    return p.exitValue();
  }
}
