package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A recording that lost records (a ring buffer of one page, system-wide, a busy workload): the
 * lost events loadprof counts and warns about are the ones {@code perf report --stats} counts,
 * whichever reader decodes the file. perf writes each drop twice (a dated PERF_RECORD_LOST when
 * it happens, and an undated LOST_SAMPLES total per event at the end); the native reader once
 * warned of both ("perf lost 6288 events" where perf said 3144).
 */
class LostEventsIT {
  /** perf report --stats: a per-event "LOST_SAMPLES events: N" (the totals have a "( x%)"). */
  private static final Pattern PER_EVENT_LOST =
      Pattern.compile("(?m)^\\s*LOST_SAMPLES events:\\s+(\\d+)\\s*$");

  @org.junit.jupiter.api.io.TempDir static Path dir;
  static Path lossy;
  static long perfLost;

  @BeforeAll
  static void record() throws Exception {
    RequiredTools.requireRoot("a system-wide recording needs it");
    Path workloads = BuiltWorkloads.in(dir);
    // Losses depend on the machine's load: a few tries at most for a recording with some.
    for (int attempt = 1; attempt <= 3 && perfLost == 0; attempt++) {
      lossy = dir.resolve("lossy-" + attempt + ".data");
      assertEquals(0, run(List.of("perf", "record", "-q", "-m", "1", "-k", "mono", "-a", "-g",
          "-e", "cpu-clock", "-e", "sched:sched_switch", "-o", lossy.toString(), "--",
          workloads.resolve("mixed").toString(), "100", "4")).exit);
      perfLost = perfReportLost(lossy);
    }
    assertTrue(perfLost > 0, "three recordings with a one-page buffer lost nothing");
  }

  /** The lost events perf report --stats counts: the sum of its per-event LOST_SAMPLES. */
  static long perfReportLost(Path data) throws Exception {
    Ran stats = run(List.of("perf", "report", "--stats", "-i", data.toString()));
    assertEquals(0, stats.exit, stats.output);
    long lost = 0;
    Matcher m = PER_EVENT_LOST.matcher(stats.output);
    while (m.find()) {
      lost += Long.parseLong(m.group(1));
    }
    return lost;
  }

  private record Ran(int exit, String output) {}

  private static Ran run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + command);
    return new Ran(p.exitValue(), output);
  }

  @ParameterizedTest
  @ValueSource(strings = {"native", "perf-script"})
  void lostEventsAreWhatPerfReportCounts(String reader) {
    Cli cli = E2e.cli("analyze", "--perf-data-reader", reader, "--out",
        dir.resolve("out-" + reader).toString(), lossy.toString());
    assertEquals(0, cli.exit(), cli.stderr());
    assertEquals(perfLost, cli.summary().get("runs").get(0).get("health").get("lost_events")
        .asLong(), "perf report --stats counted " + perfLost);
    assertThat(cli.stderr(), containsString(lossy + ": perf lost " + perfLost + " events"));
  }
}
