package dev.loadprof.pipelines;

import dev.loadprof.cli.LoadprofCli;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.FunctionRow;
import dev.loadprof.profile.PprofBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: usage, exit codes, messages, bad inputs, and the --load/--comm filters. */
class CliTest {
  private static final String PERF_RECORD = "perf record -k mono -a -g -e cpu-clock -e sched:sched_switch";
  private static final String PERF_SCRIPT =
      "perf script -i X.data -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso";

  @TempDir Path dir;

  private static String phases() {
    return E2e.trace("phases").toString();
  }

  private static int phasesPid() {
    return E2e.windows(E2e.windowsFile("phases")).get(0).pid();
  }

  // ------------------------------------------------------------------ usage and exit codes

  @Test
  void helpExitsZeroAndDocumentsEveryOption() {
    for (String[] args : List.of(new String[] {"analyze", "--help"},
        new String[] {"analyze", "-h"})) {
      Cli cli = E2e.cli(args);
      assertEquals(0, cli.exit(), String.join(" ", args));
      for (String option : List.of("-o, --out", "--window", "-p, --pid", "--comm, --comms",
          "--load", "-t, --tid", "-C, --cpu", "--time", "-e, --event", "--group-by",
          "--runner")) {
        assertThat(cli.stdout(), containsString("  " + option + "="));
      }
      assertThat(cli.stdout(), containsString("  --verbose "));
      assertThat(cli.stdout(), containsString("loadprof analyze [options] TRACE..."));
      assertThat(cli.stdout(), containsString(PERF_RECORD));
      assertThat(cli.stdout(), containsString("Exit codes: 0 success, 1 the job failed, 2 bad"));
      assertEquals("", cli.stderr());
    }
    Cli top = E2e.cli("--help");
    assertEquals(0, top.exit());
    assertThat(top.stdout(), containsString("  analyze "));
    assertThat(top.stdout(), containsString("  archive "));
    assertThat(top.stdout(), containsString("Exit codes: 0 success, 1 the job failed, 2 bad"));
  }

  @Test
  void noArgumentsIsBadUsage() {
    Cli cli = E2e.cli();
    assertEquals(2, cli.exit());
    assertThat(cli.stdout(), containsString("Usage:"));
  }

  @Test
  void analyzeWithoutTraceIsBadUsage() {
    Cli cli = E2e.analyze(dir.resolve("out"));
    assertEquals(2, cli.exit());
    assertThat(cli.stderr(), containsString("no trace given"));
  }

  @Test
  void unknownCommandIsBadUsage() {
    Cli cli = E2e.cli("analyse", phases());
    assertEquals(2, cli.exit());
    assertThat(cli.stderr(), containsString("unknown command 'analyse'"));
  }

  @Test
  void missingFileIsBadInputWithOneLineNamingIt() {
    Path missing = dir.resolve("no-such-trace.txt.gz");
    Cli cli = E2e.analyze(dir.resolve("out"), missing.toString());
    assertEquals(2, cli.exit());
    assertEquals(1, cli.stderr().strip().lines().count(), cli.stderr());
    assertThat(cli.stderr(), startsWith("loadprof: "));
    assertThat(cli.stderr(), containsString(missing.toString()));
    assertFalse(Files.exists(dir.resolve("out/summary.json")), "no outputs for bad usage");
  }

  /**
   * A missing file in a missing directory near the root: Beam's local match would walk the
   * whole disk from "/" looking for it; the CLI must answer at once (the timeout guards a hang,
   * it is not a speed target).
   */
  @Test
  void missingFileUnderTheRootIsRefusedWithoutWalkingTheDisk() {
    String missing = "/no-such-dir-for-loadprof/trace.txt.gz";
    Cli cli = assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
        () -> E2e.analyze(dir.resolve("out"), missing));
    assertEquals(2, cli.exit());
    assertThat(cli.stderr(), containsString("no such trace: " + missing));
  }

  /**
   * A missing trace is refused before the runner's options are built: with a runner
   * whose options would fail (a Flink cluster on a port where none answers), the user still
   * hears about the missing file, with the usual message.
   */
  @Test
  void missingFileIsRefusedBeforeTheRunnerOptions() throws IOException {
    Path config = dir.resolve("nowhere.properties");
    Files.writeString(config, "runner=FlinkRunner\nflinkMaster=127.0.0.1:1\n");
    String missing = dir.resolve("missing.txt.gz").toString();
    Cli cli = E2e.analyze(dir.resolve("out"), "--runner", config.toString(), missing);
    assertEquals(2, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString("no such trace: " + missing
        + " (give a perf.data recording or perf script output, plain or .gz)"));
    assertThat(cli.stderr(), not(containsString("Flink")));
  }

  /**
   * A .gz cut in the middle: what was read is analyzed, and the cut is reported like a malformed
   * line, with the file, the line where the input ended and what to do.
   */
  @Test
  void truncatedGzipIsAnalyzedUpToTheCutAndReported() throws Exception {
    Path cut = dir.resolve("cut.txt.gz");
    byte[] whole = Files.readAllBytes(Path.of(phases()));
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 3));
    Cli cli = E2e.analyze(dir.resolve("cut-out"), cut.toString()).assertOk();
    JsonNode run = cli.summary().get("runs").get(0);
    // The cut itself, and the last line, which the cut left without its end.
    assertEquals(2, run.get("health").get("malformed_lines").asLong());
    String example = run.get("malformed_examples").get(0).asText();
    assertThat(example, startsWith(cut + ":"));
    assertThat(example, containsString("the gzip data is cut at byte " + whole.length / 3));
    assertThat(run.get("malformed_examples").get(1).asText(),
        containsString("truncated last line"));
    assertThat(run.get("health").get("sample_records").asLong(), greaterThan(1000L));
    assertTrue(run.get("records").get("balanced").asBoolean());
  }

  /** A cluster runner with nothing listening fails at once with a message, not a stack trace. */
  @Test
  void clusterRunnerWithoutAClusterIsBadUsage() throws IOException {
    Path config = dir.resolve("dead-cluster.properties");
    Files.writeString(config, "runner=FlinkRunner\nflinkMaster=127.0.0.1:1\nparallelism=1\n");
    Cli cli = E2e.analyze(dir.resolve("out"), "--runner", config.toString(), phases());
    assertEquals(2, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString("no Flink cluster answers at 127.0.0.1:1"));
    assertThat(cli.stderr(), containsString("scripts/flink-cluster.sh start"));
  }

  @Test
  void badLoadRangeIsBadUsage() {
    for (String bad : List.of("x:y", "3:1", "-1", "")) {
      Cli cli = E2e.analyze(dir.resolve("out"), "--load", bad, phases());
      assertEquals(2, cli.exit(), "--load '" + bad + "': " + cli.stderr());
      assertThat(cli.stderr(), containsString("--load"));
      assertEquals(1, cli.stderr().strip().lines().count(), cli.stderr());
    }
  }

  @Test
  void badCommRegexIsBadUsage() {
    Cli cli = E2e.analyze(dir.resolve("out"), "--comm", "(", phases());
    assertEquals(2, cli.exit());
    assertThat(cli.stderr(), containsString("--comm"));
    assertThat(cli.stderr(), containsString("is not a valid regular expression"));
    assertEquals(1, cli.stderr().strip().lines().count(), cli.stderr());
  }

  @Test
  void badWindowIsBadUsage() {
    for (String bad : List.of("0ms", "fast", "1000s")) {
      Cli cli = E2e.analyze(dir.resolve("out"), "--window", bad, phases());
      assertEquals(2, cli.exit(), "--window " + bad);
      assertThat(cli.stderr(), containsString("--window"));
    }
  }

  // ------------------------------------------------------------------ bad traces

  /**
   * A text file that is not perf script output: exit 2, and the reason names the file, its
   * count of unreadable lines and the perf commands to make a usable trace. It is refused before
   * any job runs (bad input is refused in a fraction of a second), so no outputs are written; the
   * reason is the one the job gives (userSeesEachUnusableTraceOnStderr, where a good trace beside
   * it makes the job run).
   */
  @Test
  void garbageTextIsBadInputNamingTheFileAndThePerfCommand() throws Exception {
    Path garbage = writeGarbage(dir.resolve("garbage.txt"));
    Path out = dir.resolve("out");
    Cli cli = E2e.analyze(out, garbage.toString());
    assertEquals(2, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString("loadprof: " + garbage
        + ": no perf samples or sched_switch records found (300 unreadable lines)."
        + " Is this perf script output?"));
    assertThat(cli.stderr(), containsString(PERF_RECORD));
    assertThat(cli.stderr(), containsString(PERF_SCRIPT));
    assertThat(cli.stderr(), containsString("1 of 1 traces could not be analyzed"));
    assertFalse(Files.exists(out.resolve("summary.json")), "no job ran");
  }

  /**
   * The reason an input is unusable (the file and the perf command to run) is on the CLI's own
   * err stream, not only in the log, so an embedding caller sees it too.
   */
  @Test
  void garbageReasonIsOnTheCliErrStream() throws IOException {
    Path garbage = dir.resolve("garbage.txt");
    Files.writeString(garbage, "hello\nthis is not a trace\n");
    Cli cli = E2e.analyze(dir.resolve("out"), garbage.toString());
    assertEquals(2, cli.exit());
    assertThat(cli.stderr(), containsString(garbage.toString()));
    assertThat(cli.stderr(), containsString(PERF_RECORD));
  }

  /** A real trace with every sched_switch record removed: loads cannot be known. */
  @Test
  void traceWithoutSchedSwitchIsBadInputNamingTheTracepoint() throws Exception {
    Path noSwitch = dir.resolve("phases_noswitch.txt.gz");
    int removed = writeWithoutSwitches(noSwitch);
    assertEquals(171, removed, "the fixture's switch records (summary.json switch_records)");
    Cli cli = E2e.analyze(dir.resolve("out"), noSwitch.toString());
    assertEquals(2, cli.exit(), cli.stderr());
    JsonNode run = cli.summary().get("runs").get(0);
    assertEquals(0, run.get("health").path("malformed_lines").asLong(0),
        "removing whole records leaves a well-formed trace");
    String unusable = run.get("warnings").get(0).asText();
    assertThat(unusable, startsWith("UNUSABLE: " + noSwitch));
    assertThat(unusable, containsString("no sched:sched_switch records"));
    assertThat(unusable, containsString(PERF_RECORD));
  }

  /**
   * What a ./loadprof user sees: the CLI in a child JVM (its real stderr, where the log goes),
   * given both unusable traces and a good one. Exit 2, and each reason is on stderr with its file
   * and the perf command; the good trace is still analyzed.
   */
  @Test
  void userSeesEachUnusableTraceOnStderr() throws Exception {
    Path garbage = writeGarbage(dir.resolve("garbage.txt"));
    Path noSwitch = dir.resolve("phases_noswitch.txt.gz");
    writeWithoutSwitches(noSwitch);
    Path out = dir.resolve("out");
    ChildRun child = runCliInChildJvm("analyze", "--out", out.toString(), garbage.toString(),
        noSwitch.toString(), phases());
    assertEquals(2, child.exit, child.stderr);
    assertThat(child.stderr, containsString(garbage + ": no perf samples or sched_switch records"));
    assertThat(child.stderr, containsString(noSwitch + ": no sched:sched_switch records"));
    // Said once, not once per stage that noticed it.
    assertEquals(1, child.stderr.split(java.util.regex.Pattern.quote(noSwitch
        + ": no sched:sched_switch records"), -1).length - 1, child.stderr);
    assertThat(child.stderr, containsString(PERF_RECORD));
    assertThat(child.stderr, containsString("loadprof: 2 of 3 traces could not be analyzed"));
    JsonNode summary = E2e.JSON.readTree(out.resolve("summary.json").toFile());
    assertEquals(3, summary.get("runs").size());
    assertEquals("phases", summary.get("headline").get("run_id").asText());
    assertEquals(phasesPid(), summary.get("headline").get("pid").asInt());
  }

  private static Path writeGarbage(Path garbage) throws IOException {
    Random r = new Random(42);
    StringBuilder text = new StringBuilder();
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 :/[]=>-_.";
    for (int i = 0; i < 300; i++) {
      int n = 1 + r.nextInt(100);
      for (int j = 0; j < n; j++) {
        text.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      text.append('\n');
    }
    Files.writeString(garbage, text);
    return garbage;
  }

  /** The phases fixture without its sched_switch records (header, stack and blank line). */
  private static int writeWithoutSwitches(Path noSwitch) throws IOException {
    int removed = 0;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
            new GZIPInputStream(Files.newInputStream(E2e.trace("phases"))),
            StandardCharsets.UTF_8));
        Writer w = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(noSwitch)),
            StandardCharsets.UTF_8)) {
      boolean skipping = false;
      for (String line; (line = in.readLine()) != null; ) {
        boolean header = !line.isEmpty() && !Character.isWhitespace(line.charAt(0));
        if (header) {
          skipping = line.contains(" sched:sched_switch:");
          removed += skipping ? 1 : 0;
        }
        if (!skipping) {
          w.write(line);
          w.write('\n');
        } else if (line.isEmpty()) {
          skipping = false; // the blank line after the record's stack
        }
      }
    }
    return removed;
  }

  /**
   * Five lines in the middle of a real trace corrupted (sample headers replaced by junk or cut
   * after the timestamp): the rest is analyzed (exit 0), every corrupted line is counted once,
   * and the examples name file:line.
   */
  @Test
  void corruptedLinesAreCountedAndNamedAndTheRestIsAnalyzed() throws Exception {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(E2e.trace("phases"))), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        lines.add(line);
      }
    }
    List<Integer> headers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(" cpu-clock:") && !lines.get(i).startsWith("\t")) {
        headers.add(i);
      }
    }
    TreeSet<Integer> corrupted = new TreeSet<>(); // 1-based line numbers
    for (int j = 0; j < 5; j++) {
      int i = headers.get(headers.size() / 3 + j * 997);
      String line = lines.get(i);
      lines.set(i, j % 2 == 0 ? "@@! corrupted " + j + " ~~ not perf"
          : line.substring(0, line.indexOf(':') + 4));
      corrupted.add(i + 1);
    }
    Path damaged = dir.resolve("phases_damaged.txt.gz");
    try (OutputStream os = new GZIPOutputStream(Files.newOutputStream(damaged))) {
      os.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    Cli cli = E2e.analyze(dir.resolve("out"), damaged.toString());
    assertEquals(0, cli.exit(), cli.stderr());
    JsonNode run = cli.summary().get("runs").get(0);
    assertEquals(5, run.get("health").get("malformed_lines").asLong());
    Set<Integer> named = new HashSet<>();
    for (JsonNode e : run.get("malformed_examples")) {
      String example = e.asText();
      assertThat(example, startsWith(damaged + ":"));
      named.add(Integer.parseInt(example.substring(damaged.toString().length() + 1,
          example.indexOf(':', damaged.toString().length() + 1))));
    }
    assertEquals(corrupted, new TreeSet<>(named), "file:line of each corrupted line");
    List<String> warnings = new ArrayList<>();
    run.get("warnings").forEach(w -> warnings.add(w.asText()));
    assertThat(warnings, hasItem(containsString("5 malformed lines were skipped")));
    // Five lost samples of ~14000 do not move the answer.
    JsonNode p = E2e.process(cli.summary(), phasesPid());
    JsonNode clean = E2e.process(E2e.analyzeCached(phases()).summary(), phasesPid());
    assertEquals(clean.get("samples").asLong() - 5, p.get("samples").asLong(),
        "each corrupted header loses its sample, and only that");
    assertEquals(E2e.at(clean.get("realtime_histogram"), 1),
        E2e.at(p.get("realtime_histogram"), 1), 0.001);
  }

  // ------------------------------------------------------------------ filters

  @Test
  void loadFilterAppliesToFunctionsAndProfileButNotHistograms() throws Exception {
    int pid = phasesPid();
    Cli whole = E2e.analyzeCached(phases());
    Cli one = E2e.analyze(dir.resolve("load1"), "--load", "1", phases()).assertOk();
    Cli many = E2e.analyze(dir.resolve("load2-8"), "--load", "2:8", phases()).assertOk();

    // Histograms stay whole: histogram.txt is the same bytes, summary.json's histograms too.
    assertArrayEquals(whole.bytes("histogram.txt"), one.bytes("histogram.txt"));
    assertArrayEquals(whole.bytes("histogram.txt"), many.bytes("histogram.txt"));
    for (Cli c : List.of(one, many)) {
      for (String h : List.of("realtime_histogram", "cpu_histogram", "time_at_load_ns")) {
        assertEquals(E2e.process(whole.summary(), pid).get(h), E2e.process(c.summary(), pid).get(h));
      }
    }
    assertEquals("1", one.summary().get("load_filter").asText());
    assertEquals("2:8", many.summary().get("load_filter").asText());

    // functions.txt: at load 1 the serial functions; at 2..8 parallel_phase and no serial one.
    List<FunctionRow> oneRows = E2e.functionsTxt(one.file("functions.txt")).get("phases/" + pid);
    List<FunctionRow> manyRows = E2e.functionsTxt(many.file("functions.txt")).get("phases/" + pid);
    assertThat(one.file("functions.txt"), containsString("load filter: 1"));
    assertThat(many.file("functions.txt"), containsString("load filter: 2:8"));
    assertEquals(List.of("serial_phase", "tail_serial"),
        List.of(oneRows.get(0).name(), oneRows.get(1).name()));
    // serial_phase 1.0 s and tail_serial 0.5 s of the 1.5 s at load 1: 2/3 and 1/3 of it.
    assertEquals(66.7, oneRows.get(0).flatPct(), 1.5);
    assertEquals(33.3, oneRows.get(1).flatPct(), 1.5);
    for (FunctionRow r : oneRows) {
      assertEquals("1.00", r.avgLoad().equals("-") ? "1.00" : r.avgLoad(), r.name());
      if (r.name().equals("parallel_phase")) {
        // 11 samples taken while the other worker was preempted (GoPprofEndToEndTest).
        assertThat(r.flatPct(), lessThan(0.5));
      }
    }
    assertEquals("parallel_phase", manyRows.get(0).name());
    assertEquals(99.3, manyRows.get(0).flatPct(), 1.0);
    Set<String> manyNames = new HashSet<>();
    manyRows.forEach(r -> manyNames.add(r.name()));
    assertThat(manyNames, not(hasItems("serial_phase")));
    assertThat(manyNames, not(hasItem("tail_serial")));
    assertThat(manyRows.stream().map(FunctionRow::avgLoad).filter(a -> !a.equals("-")).toList(),
        everyItem(containsString("2.00")));

    // profile.pb.gz: every sample's load label within the filter, and the whole profile's
    // wall total split exactly between the two filters (loads are 1 and 2 only).
    long wholeWall = wallTotal(whole.out(), 1, Integer.MAX_VALUE);
    long oneWall = wallTotal(one.out(), 1, 1);
    long manyWall = wallTotal(many.out(), 2, 8);
    assertEquals(wholeWall, oneWall + manyWall);
    assertThat(oneWall, greaterThan(0L));
    assertThat(manyWall, greaterThan(0L));

    // flame.folded follows the filter too.
    assertThat(many.file("flame.folded"), not(containsString("serial_phase")));
    assertThat(one.file("flame.folded"), containsString("serial_phase"));
  }

  @Test
  void commFilterKeepsOnlyThatProcess() throws Exception {
    Cli whole = E2e.analyzeCached(phases());
    Cli only = E2e.analyze(dir.resolve("comm"), "--comm", "^phases$", phases()).assertOk();
    assertThat(E2e.process(whole.summary(), 1024).get("comm").asText(),
        containsString("memfd"));
    JsonNode processes = only.summary().get("runs").get(0).get("processes");
    assertEquals(1, processes.size(), processes.toString());
    assertEquals(phasesPid(), processes.get(0).get("pid").asInt());
    assertEquals("phases", processes.get(0).get("comm").asText());
    assertEquals(1, E2e.functionsTxt(only.file("functions.txt")).size());
    assertEquals(Set.of(Integer.toString(phasesPid())), labelValues(only.out(), "pid"));
    assertThat(labelValues(whole.out(), "pid").size(), greaterThan(1));
    // The process's own figures do not change with the filter.
    assertEquals(E2e.process(whole.summary(), phasesPid()), processes.get(0));
    // The regex must match the name, not be found in some other field: "^hases" keeps nothing.
    Cli none = E2e.analyze(dir.resolve("none"), "--comm", "^hases", phases()).assertOk();
    assertEquals(0, none.summary().get("runs").get(0).get("processes").size());
  }

  /** --pid N that matches nothing names N and lists the biggest processes (name, pid, samples). */
  @Test
  void aPidWithoutSamplesIsNamedWithTheBiggestProcesses() throws Exception {
    int pid = phasesPid();
    long samples = E2e.process(E2e.analyzeCached(phases()).summary(), pid).get("samples")
        .asLong();
    Cli cli = E2e.analyze(dir.resolve("no-pid"), "--pid", "99999", phases()).assertOk();
    assertThat(cli.stdout(), containsString("No process samples found: no process matches"
        + " --pid 99999; the biggest processes are: phases (pid " + pid + ", " + samples
        + " samples), "));
  }

  /** --event X that the trace lacks lists the events it has (exit 2, the file named). */
  @Test
  void anEventTheTraceLacksListsTheEventsPresent() {
    Cli cli = E2e.analyze(dir.resolve("no-event"), "--event", "nosuch", phases());
    assertEquals(2, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString(phases() + ": no samples of the event nosuch"
        + " (--event); the trace has samples of: cpu-clock ("));
    assertThat(cli.stderr(), not(containsString("no samples of a sampling event")));
  }

  /**
   * Every record read is analyzed or skipped with a reason, with and without a filter: the
   * samples a filter removes move from samples_in_profiles to samples_filtered_out.
   */
  @Test
  void everyRecordIsAnalyzedOrSkippedWithAReason() throws Exception {
    JsonNode whole = E2e.analyzeCached(phases()).summary().get("runs").get(0).get("records");
    JsonNode only = E2e.analyze(dir.resolve("acct"), "--comm", "^phases$", phases()).assertOk()
        .summary().get("runs").get(0).get("records");
    for (JsonNode r : List.of(whole, only)) {
      assertTrue(r.get("balanced").asBoolean(), r.toString());
      long sum = 0;
      for (JsonNode part : List.of(r.get("analyzed"), r.get("skipped"))) {
        for (JsonNode n : part) {
          sum += n.asLong();
        }
      }
      assertEquals(r.get("read").asLong(), sum, r.toString());
    }
    long filtered = only.get("skipped").get("samples_filtered_out").asLong();
    assertThat(filtered, greaterThan(0L));
    assertEquals(whole.get("analyzed").get("samples_in_profiles").asLong(),
        only.get("analyzed").get("samples_in_profiles").asLong() + filtered);
    assertEquals(whole.get("read"), only.get("read"));
  }

  // ------------------------------------------------------------------ helpers

  private static ProfileProto.Profile profile(Path out) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(out.resolve("profile.pb.gz")))) {
      return ProfileProto.Profile.parseFrom(in);
    }
  }

  /** Sum of the wall values, checking every sample's load label lies in [min, max]. */
  private static long wallTotal(Path out, int min, int max) throws IOException {
    ProfileProto.Profile p = profile(out);
    int wall = -1;
    for (int i = 0; i < p.getSampleTypeCount(); i++) {
      if (p.getStringTable((int) p.getSampleType(i).getType()).equals(PprofBuilder.ONCPU_REAL)) {
        wall = i;
      }
    }
    assertTrue(wall >= 0, "no wall sample type");
    long total = 0;
    for (ProfileProto.Sample s : p.getSampleList()) {
      long load = -1;
      for (ProfileProto.Label l : s.getLabelList()) {
        if (p.getStringTable((int) l.getKey()).equals("load")) {
          load = l.getNum();
        }
      }
      if (load < min || load > max) {
        fail("sample with load " + load + " outside [" + min + ", " + max + "]");
      }
      total += s.getValue(wall);
    }
    return total;
  }

  private static Set<String> labelValues(Path out, String key) throws IOException {
    ProfileProto.Profile p = profile(out);
    Set<String> values = new TreeSet<>();
    for (ProfileProto.Sample s : p.getSampleList()) {
      for (ProfileProto.Label l : s.getLabelList()) {
        if (p.getStringTable((int) l.getKey()).equals(key)) {
          // String labels (process, run) by their text, numeric ones (pid, tid, load) in decimal.
          values.add(l.getStr() != 0 ? p.getStringTable((int) l.getStr())
              : Long.toString(l.getNum()));
        }
      }
    }
    return values;
  }

  record ChildRun(int exit, String stdout, String stderr) {}

  /** The CLI in a child JVM (its real System.err, as ./loadprof users see it). */
  private ChildRun runCliInChildJvm(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LoadprofCli.class.getName()));
    cmd.addAll(List.of(args));
    Path stdout = Files.createTempFile(dir, "child", ".out");
    Path stderr = Files.createTempFile(dir, "child", ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("child CLI timed out");
    }
    return new ChildRun(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
  }

  // ------------------------------------------------------------------ stdin

  /** "-" reads the trace from stdin once, as a stream; the outputs equal the file's. */
  @Test
  void stdinIsReadAsAStream() throws IOException {
    Cli fromFile = E2e.analyzeCached(phases());
    java.io.InputStream saved = System.in;
    try {
      System.setIn(Files.newInputStream(E2e.trace("phases")));
      Cli fromStdin = E2e.analyze(dir.resolve("stdin"), "-").assertOk();
      // The same outputs; only the run id (the file name, or "stdin") differs.
      assertEquals(fromFile.file("functions.txt"),
          fromStdin.file("functions.txt").replace("stdin", "phases"));
      assertEquals(fromFile.file("flame.folded"), fromStdin.file("flame.folded"));
      assertEquals("stdin", fromStdin.summary().get("runs").get(0).get("run_id").asText());
    } finally {
      System.setIn(saved);
    }
  }
  /**
   * A named pipe (FIFO) is read once as a stream, gzipped or plain, while another process
   * writes it; the outputs equal the file's. It used to fail with "Illegal seek" (exit 1).
   */
  @Test
  void aFifoIsReadOnceAsAStream() throws Exception {
    Cli fromFile = E2e.analyzeCached(phases());
    for (boolean gzipped : new boolean[] {true, false}) {
      Path fifo = dir.resolve(gzipped ? "trace.fifo" : "plain.fifo");
      Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
      assertEquals(0, mkfifo.waitFor());
      byte[] bytes = gzipped ? Files.readAllBytes(E2e.trace("phases"))
          : DamagedTraces.text(E2e.trace("phases")).getBytes(StandardCharsets.UTF_8);
      Thread writer = new Thread(() -> {
        try (java.io.OutputStream out = new java.io.FileOutputStream(fifo.toFile())) {
          out.write(bytes);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      writer.start();
      Cli fromFifo = E2e.analyze(dir.resolve("fifo-" + gzipped), fifo.toString()).assertOk();
      writer.join(60_000);
      String runId = fromFifo.summary().get("runs").get(0).get("run_id").asText();
      assertEquals(fromFile.file("flame.folded"), fromFifo.file("flame.folded"));
      assertEquals(fromFile.file("functions.txt"),
          fromFifo.file("functions.txt").replace(runId, "phases"));
    }
  }
}
