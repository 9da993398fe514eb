package dev.loadprof.pipelines;

import static dev.loadprof.pipelines.DamagedTraces.MS;
import static dev.loadprof.pipelines.DamagedTraces.SECOND;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.DamagedTraces.Rec;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The damaged-input corpus: each damaged or hostile variant of the shipped example trace, analyzed
 * through the CLI in-process, gives the clean result (within the stated tolerance), or says what
 * may be off in a warning on the console and in summary.json, or exits 2 naming the file. In
 * every case the records balance, no load exceeds the CPU count and no real time exceeds the
 * run's span.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DamagedTraceCorpusTest {
  /** Tolerances of "the clean result": avg load absolute, real and CPU time relative. */
  static final double LOAD_TOLERANCE = 0.02;

  static final double TIME_TOLERANCE = 0.01;

  /** Not a speed claim: a damaged trace must never hang the job (the issue saw hangs). */
  static final Duration HANG_GUARD = Duration.ofMinutes(3);

  @TempDir Path dir;

  String clean;
  List<Rec> recs;
  int pid;
  JsonNode cleanProcess;

  @BeforeAll
  void readFixture() {
    clean = DamagedTraces.text(E2e.trace("phases"));
    recs = DamagedTraces.records(clean);
    pid = E2e.windows(E2e.windowsFile("phases")).get(0).pid();
    cleanProcess = E2e.process(E2e.analyzeCached(E2e.trace("phases").toString()).summary(), pid);
  }

  // ---------------------------------------------------------------- time order

  @Test
  void recordsReversedWithinEachWindowAreSortedBack() {
    Cli cli = analyze("reversed", DamagedTraces.join(
        DamagedTraces.reversedWithinWindows(recs, SECOND)));
    assertClean(cli);
  }

  @Test
  void cpuBlocksSwappedAreSortedBack() {
    Cli cli = analyze("swapped", DamagedTraces.join(
        DamagedTraces.cpuBlocksSwapped(recs, 100 * MS)));
    assertClean(cli);
  }

  @Test
  void oneCpuWritten400msLateIsSortedBack() {
    Cli cli = analyze("late-cpu", DamagedTraces.join(
        DamagedTraces.cpuWrittenLate(recs, 1, 400 * MS)));
    assertClean(cli);
  }

  @Test
  void shuffledRecordsAreCountedAndWarned() {
    Cli cli = analyze("shuffled", DamagedTraces.join(DamagedTraces.shuffled(recs, 7)));
    assertWarned(cli, "out of time order");
  }

  // ---------------------------------------------------------------- far-off timestamps

  @Test
  void oneRecord1e10sLaterIsSkippedAndWarned() {
    // 10^10 s is past what a long holds in ns: the parser refuses it, naming the line.
    Cli cli = analyze("far-off", DamagedTraces.join(
        DamagedTraces.oneSampleShifted(recs, 10_000_000_000L)));
    assertClean(cli);
    assertWarned(cli, "bad timestamp");
    assertWarned(cli, "far-off.txt.gz:");
  }

  @Test
  void oneRecord100000sLaterIsSkippedAndWarned() {
    farOff(100_000L);
  }

  @Test
  void oneRecord5000sLaterIsSkippedAndWarned() {
    farOff(5_000L);
  }

  private void farOff(long offsetSeconds) {
    Cli cli = analyze("far-off", DamagedTraces.join(
        DamagedTraces.oneSampleShifted(recs, offsetSeconds)));
    assertClean(cli);
    assertWarned(cli, "outside the run");
  }

  // ---------------------------------------------------------------- duplicates

  @Test
  void traceConcatenatedTwiceIsDeduplicatedAndWarned() {
    Cli cli = analyze("twice", clean + clean);
    assertClean(cli);
    assertWarned(cli, "duplicate");
  }

  @Test
  void everyRecordWrittenTwiceIsDeduplicatedAndWarned() {
    Cli cli = analyze("doubled", DamagedTraces.join(DamagedTraces.everyRecordTwice(recs)));
    assertClean(cli);
    assertWarned(cli, "duplicate");
  }

  // ---------------------------------------------------------------- processes and headers

  @Test
  void commThatLooksLikeAHeaderIsParsedWhole() {
    String hostile = "1/1 [7] 1.5: x"; // 14 bytes: a legal comm
    Cli cli = analyze("hostile-comm", clean
        .replace("phases  " + pid + "/", hostile + "  " + pid + "/")
        .replace("exec: phases:", "exec: " + hostile + ":"));
    cli.assertOk();
    JsonNode headline = cli.summary().get("headline");
    assertEquals(pid, headline.get("pid").asInt(), headline.toString());
    assertEquals(hostile, headline.get("comm").asText());
    assertNear(cleanProcess, E2e.process(cli.summary(), pid));
  }

  @Test
  void unknownThreadSamplesDoNotBreakTheThreadsIntervals() {
    Cli cli = analyze("minus-one", DamagedTraces.join(DamagedTraces.unknownThreadSamples(recs,
        pid, 48 * SECOND, 48 * SECOND + 500 * MS, 10)));
    cli.assertOk();
    JsonNode p = E2e.process(cli.summary(), pid);
    assertThat(p.path("health").path("samples_contradicted").asLong(),
        lessThanOrEqualTo(cleanProcess.path("health").path("samples_contradicted").asLong() + 2));
    // The skipped samples' real time is missing (and warned about); nothing else moves.
    long skipped = cli.summary().get("runs").get(0).get("health")
        .get("samples_of_unknown_thread").asLong();
    assertEquals(cleanProcess.get("wall_ns").asDouble(), p.get("wall_ns").asDouble(),
        skipped * 250_000 + cleanProcess.get("wall_ns").asDouble() * 0.001, "wall");
    assertRelative(cleanProcess.get("time_at_load_ns").get("2").asDouble(),
        p.get("time_at_load_ns").get("2").asDouble(), "time at load 2");
    assertWarned(cli, "no thread");
  }

  // ---------------------------------------------------------------- processes

  /**
   * The whole recording again 4 s after the phases process exited, its pid forked anew and the
   * program renamed 'reborn': two processes of one pid, each with the clean figures and its own
   * name, in summary.json, functions.txt and the pprof labels.
   */
  @Test
  void aPidReusedAfterItsProcessExitedIsANewProcessWithItsOwnName() {
    Cli cli = analyze("pid-reused", DamagedTraces.join(livedTwice("reborn")));
    cli.assertOk();
    assertTwoProcessesOfThePid(cli, "phases", "reborn");
    assertThat(cli.file("functions.txt"), containsString("reborn"));
    // Before its exec, the first life's pid ran perf's exec stub: a process of its own.
    JsonNode stub = E2e.processByComm(cli.summary(), "perf-exec");
    assertEquals(pid, stub.get("pid").asInt());
    assertEquals(6, stub.get("samples").asLong());
  }

  /** The same program under the recycled pid: the later process is named apart ("#2"). */
  @Test
  void aPidReusedByTheSameProgramIsNamedApart() {
    Cli cli = analyze("pid-reused-same-name", DamagedTraces.join(livedTwice("phases")));
    cli.assertOk();
    assertTwoProcessesOfThePid(cli, "phases", "phases#2");
  }

  private void assertTwoProcessesOfThePid(Cli cli, String first, String second) {
    for (String comm : List.of(first, second)) {
      JsonNode p = E2e.processByComm(cli.summary(), comm);
      assertEquals(pid, p.get("pid").asInt(), comm);
      assertEquals(cleanProcess.get("samples").asLong(), p.get("samples").asLong(), comm);
      assertNear(cleanProcess, p);
    }
    // The exec in each life, and the fork of the second.
    assertEquals(3, cli.summary().get("runs").get(0).get("health").get("pid_restarts").asLong());
  }

  /** The fixture, then all its timed records again 4 s later in a new process of the pid. */
  private List<Rec> livedTwice(String secondName) {
    long shift = 4 * SECOND;
    List<Rec> twice = new ArrayList<>(recs);
    long firstNs = recs.stream().filter(r -> r.timeNs() > 0).mapToLong(Rec::timeNs).min()
        .orElseThrow();
    long forkNs = firstNs + shift - MS;
    twice.add(new Rec(String.format(Locale.ROOT,
        "perf  1598/1598  [000]  %d.%09d: PERF_RECORD_FORK(%d:%d):(1598:1598)%n",
        forkNs / SECOND, forkNs % SECOND, pid, pid), forkNs, 0));
    for (Rec r : recs) {
      if (r.timeNs() > 0) {
        long t = r.timeNs() + shift;
        String text = DamagedTraces.replaceTime(r.text(),
            String.format(Locale.ROOT, "%d.%09d", t / SECOND, t % SECOND));
        twice.add(new Rec(text.replace("phases", secondName), t, r.cpu()));
      }
    }
    return twice;
  }

  // ---------------------------------------------------------------- arithmetic

  @Test
  void periodsOf1e17AreFlaggedAndDoNotWrapTheCpuTotal() {
    Cli cli = analyze("huge-period", DamagedTraces.join(
        DamagedTraces.hugePeriods(recs, "phases", 3, 100_000_000_000_000_000L)));
    assertWarned(cli, "period longer than the run");
    for (JsonNode p : cli.summary().get("runs").get(0).get("processes")) {
      assertTrue(p.get("cpu_ns").asLong() >= 0, p.toString());
    }
  }

  // ---------------------------------------------------------------- partial input

  @Test
  void gzipFollowedByPlainTextIsReported() {
    byte[] gz = DamagedTraces.gzip(clean);
    byte[] tail = "phases  1599/1599  [000]  50.0: plain text after the gzip\n"
        .getBytes(StandardCharsets.UTF_8);
    Cli cli = analyzeBytes("gzip-then-text.txt.gz", concat(gz, tail));
    assertClean(cli);
    assertWarned(cli, "after the end of the gzip data");
  }

  @Test
  void truncatedGzipYieldsAllThatDecompresses() throws Exception {
    byte[] gz = DamagedTraces.gzip(clean);
    byte[] cut = Arrays.copyOf(gz, gz.length * 9 / 10);
    Path file = dir.resolve("cut.txt.gz");
    Files.write(file, cut);
    // What zcat recovers: every complete line of it is analyzed.
    Process zcat = new ProcessBuilder("zcat", file.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String recovered = new String(zcat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    zcat.waitFor();
    long zcatLines = recovered.chars().filter(c -> c == '\n').count();
    Cli cli = run(file);
    JsonNode run = cli.summary().get("runs").get(0);
    assertThat(run.get("health").get("lines").asLong(),
        org.hamcrest.Matchers.greaterThanOrEqualTo(zcatLines));
    assertWarned(cli, "ends early");
    assertWarned(cli, "byte " + cut.length);
  }

  // ---------------------------------------------------------------- hostile names

  @Test
  void controlCharactersInNamesAreEscapedInTextOutputsAndExactInJson() {
    String hostile = "serial\u001b[31m_\u001b]0;owned\u0007phase\u0000x";
    Cli cli = analyze("escapes", clean.replace(" serial_phase (", " " + hostile + " ("));
    cli.assertOk();
    for (String text : List.of(cli.stdout(), cli.stderr(), cli.file("functions.txt"),
        cli.file("summary.txt"), cli.file("flame.folded"))) {
      assertFalse(text.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t'),
          "a control character reached a text output");
    }
    assertThat(cli.file("functions.txt"), containsString("serial\\x1b[31m_\\x1b]0;owned\\x07"
        + "phase\\x00x"));
    assertTrue(E2e.topFunctions(E2e.process(cli.summary(), pid), "flat_real_pct").containsKey(hostile),
        "summary.json keeps the exact name");
  }

  // ---------------------------------------------------------------- assertions

  private Cli analyze(String name, String text) {
    return analyzeBytes(name + ".txt.gz", DamagedTraces.gzip(text));
  }

  private Cli analyzeBytes(String name, byte[] bytes) {
    Path file = dir.resolve(name);
    try {
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return run(file);
  }

  private Cli run(Path file) {
    Path out = dir.resolve("out-" + file.getFileName());
    Cli cli = assertTimeoutPreemptively(HANG_GUARD, () -> E2e.analyze(out, file.toString()));
    assertThat("never exit 1: " + cli.stderr(), cli.exit(), org.hamcrest.Matchers.oneOf(0, 2));
    if (cli.exit() == 2) {
      assertThat(cli.stderr(), containsString(file.toString()));
    }
    if (Files.exists(out.resolve("summary.json"))) {
      assertInvariants(cli.summary());
    }
    return cli;
  }

  /** Holds for any result: records balance, loads within the CPUs, real time within the run. */
  static void assertInvariants(JsonNode summary) {
    for (JsonNode run : summary.get("runs")) {
      assertTrue(run.get("records").get("balanced").asBoolean(), run.get("records").toString());
      int cpus = run.get("cpus").asInt();
      long span = run.get("end_ns").asLong() - run.get("start_ns").asLong();
      for (JsonNode p : run.get("processes")) {
        p.get("time_at_load_ns").fieldNames().forEachRemaining(load ->
            assertThat("load of pid " + p.get("pid"), Integer.parseInt(load),
                lessThanOrEqualTo(cpus)));
        assertThat("real time of pid " + p.get("pid"), p.get("wall_ns").asLong(),
            lessThanOrEqualTo(span));
      }
    }
  }

  private void assertClean(Cli cli) {
    cli.assertOk();
    assertNear(cleanProcess, E2e.process(cli.summary(), pid));
  }

  private static void assertNear(JsonNode expected, JsonNode actual) {
    assertEquals(expected.get("avg_load").asDouble(), actual.get("avg_load").asDouble(),
        LOAD_TOLERANCE, "avg load");
    assertRelative(expected.get("wall_ns").asDouble(), actual.get("wall_ns").asDouble(), "real");
    assertRelative(expected.get("cpu_ns").asDouble(), actual.get("cpu_ns").asDouble(), "cpu");
  }

  private static void assertRelative(double expected, double actual, String what) {
    assertEquals(expected, actual, expected * TIME_TOLERANCE, what);
  }

  /** The warning is in summary.json and on the console. */
  static void assertWarned(Cli cli, String words) {
    String console = cli.stdout() + cli.stderr();
    assertThat("console", console.toLowerCase(Locale.ROOT), containsString(words));
    StringBuilder json = new StringBuilder();
    cli.summary().get("runs").forEach(r -> r.get("warnings").forEach(w ->
        json.append(w.asText()).append('\n')));
    assertThat("summary.json warnings", json.toString().toLowerCase(Locale.ROOT),
        containsString(words));
    assertThat(console, not(containsString("\u001b")));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
