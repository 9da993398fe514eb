package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadprof record} against the real perf, as root (CI) and as the unprivileged user
 * nobody: both modes, the accuracy of the per-process mode against a system-wide recording of
 * the same execution, Ctrl-C, and perf.data analyzed directly against its text trace.
 */
class RecordIT {
  @TempDir static Path shared;
  static Path workloads;

  @BeforeAll
  static void buildWorkloads() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF, RequiredTools.Tool.MAKE,
        RequiredTools.Tool.GCC);
    RequiredTools.requireRoot("system-wide recordings and runuser nobody need it");
    Path sources = RequiredTools.workloads();
    workloads = shared.resolve("wl");
    assertEquals(0, run(List.of("cp", "-r", sources.toString(), workloads.toString())));
    assertEquals(0, run(List.of("make", "-s", "-C", workloads.toString())));
    // nobody must reach the workloads and write its recordings here.
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
  }

  /** The repository root: the parent of the pipelines module the tests run in. */
  static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("pipelines/target"))) {
      p = p.getParent();
    }
    assertTrue(p != null, "no pipelines/target above " + Path.of("").toAbsolutePath());
    return p;
  }

  private static int run(List<String> command) throws IOException, InterruptedException {
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }

  private static String mixed() {
    return workloads.resolve("mixed").toString();
  }

  @Test
  void recordsSystemWideAsRootAndPassesTheExitCodeThrough(@TempDir Path out)
      throws IOException {
    Cli cli = E2e.cli("record", "--mode", "system", "--out", out.toString(), "--",
        "sh", "-c", mixed() + " 20 2; echo to-stderr >&2; exit 3");
    assertEquals(3, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString("mode system"));
    assertThat(cli.stderr(), containsString("sh exited with code 3"));
    assertEquals(1, recordings(out, "sh-").size(), cli.stderr());
    assertThat(cli.stdout(), containsString("Real time at load:"));
  }

  /** The recordings in {@code dir} whose names start with {@code prefix}, sorted. */
  private static List<Path> recordings(Path dir, String prefix) throws IOException {
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().startsWith(prefix)
          && f.getFileName().toString().endsWith(".data")).sorted().toList();
    }
  }

  /**
   * Recording one program twice into one directory keeps both recordings, each in a file of
   * its own named for the program and its start; compare and nightly take them as they are
   * (before, the second overwrote mixed.data, and two mixed.data of two directories were
   * refused: "two traces have the run id 'mixed'"). One file name in two directories is two
   * runs; a copy of a recording is counted once.
   */
  @Test
  void repeatedRecordingsAreDistinctRunsThatCompareAndNightlyTakeAsTheyAre(@TempDir Path dir)
      throws IOException {
    Path base = dir.resolve("base");
    Path candidate = dir.resolve("new");
    for (Path out : List.of(base, base, candidate, candidate)) {
      // At 1 kHz: fewer records, so that perf loses none on a busy machine (a run that lost
      // events is left out of compare's figures, though still one of its side's runs).
      Cli cli = E2e.cli("record", "--mode", "system", "--freq", "1000", "--out",
          out.toString(), "--", mixed(), "20", "2", "1");
      assertEquals(0, cli.exit(), cli.stderr());
      assertThat(cli.stderr(), containsString("the recording is kept in " + out + "/mixed-"));
    }
    List<Path> baseRuns = recordings(base, "mixed-");
    List<Path> newRuns = recordings(candidate, "mixed-");
    assertEquals(2, baseRuns.size(), baseRuns.toString());
    assertEquals(2, newRuns.size(), newRuns.toString());
    for (Path run : baseRuns) {
      assertTrue(run.getFileName().toString().matches("mixed-\\d{8}-\\d{6}(-\\d+)?\\.data"),
          run.toString());
    }

    Cli compare = E2e.cli("compare", "--out", dir.resolve("cmp").toString(), "--comm",
        "^mixed$", "--baseline", base + "/mixed-*.data", "--candidate",
        candidate + "/mixed-*.data");
    assertTrue(compare.exit() == 0 || compare.exit() == 3, compare.stderr());
    assertEquals(List.of(runIds(baseRuns), runIds(newRuns)), sides(compare), compare.stderr());
    // The directories record wrote, as they are, no selection flags: their recordings, the same
    // runs (its outputs beside them are not traces); a directory without one is refused.
    Cli dirs = E2e.cli("compare", "--out", dir.resolve("cmp-dirs").toString(), "--baseline",
        base.toString(), "--candidate", candidate.toString());
    assertTrue(dirs.exit() == 0 || dirs.exit() == 3, dirs.stderr());
    assertEquals(List.of(runIds(baseRuns), runIds(newRuns)), sides(dirs), dirs.stderr());
    Path none = Files.createDirectories(dir.resolve("none"));
    Cli refused = E2e.cli("analyze", "--out", dir.resolve("none-out").toString(),
        none.toString());
    assertEquals(2, refused.exit(), refused.stderr());
    assertThat(refused.stderr(), containsString(none + " is a directory without perf.data"
        + " recordings"));

    // One name in two directories: two runs, told apart by their directories.
    Files.copy(newRuns.get(0), base.resolve("mixed.data"));
    Files.copy(baseRuns.get(0), candidate.resolve("mixed.data"));
    Cli twoDirs = E2e.cli("compare", "--out", dir.resolve("cmp2").toString(), "--comm",
        "^mixed$", "--baseline", base + "/mixed.data", baseRuns.get(1).toString(),
        "--candidate", candidate + "/mixed.data", newRuns.get(1).toString());
    assertTrue(twoDirs.exit() == 0 || twoDirs.exit() == 3, twoDirs.stderr());
    assertEquals(List.of(sorted("base/mixed", runIds(baseRuns).get(1)),
        sorted("new/mixed", runIds(newRuns).get(1))), sides(twoDirs), twoDirs.stderr());

    // A copy of a recording is the same trace: counted once, and listed as left out.
    Files.copy(baseRuns.get(0), base.resolve("mixed-copy.data"));
    Cli nightly = E2e.cli("nightly", "--out", dir.resolve("nightly").toString(), "--comm",
        "^mixed$", base + "/mixed-*.data");
    assertTrue(nightly.exit() == 0 || nightly.exit() == 3, nightly.stderr());
    JsonNode excluded = CompareCliTest.json(nightly, "nightly.json").get("excluded_runs");
    List<String> sameTrace = new ArrayList<>();
    excluded.forEach(e -> {
      if (e.get("reason").asText().contains("is the same trace as run")) {
        sameTrace.add(e.get("run").asText() + ": " + e.get("reason").asText());
      }
    });
    assertEquals(1, sameTrace.size(), excluded.toString());
    assertThat(sameTrace.get(0), containsString("mixed-copy: run mixed-copy ("));
    assertThat(sameTrace.get(0), containsString("is the same trace as run "
        + runIds(baseRuns).get(0) + " ("));
  }

  private static List<String> sorted(String... runIds) {
    return java.util.Arrays.stream(runIds).sorted().toList();
  }

  private static List<String> runIds(List<Path> recordings) {
    return recordings.stream().map(p -> p.getFileName().toString().replace(".data", ""))
        .toList();
  }

  /**
   * The runs of compare's baseline and candidate, sorted, whether counted or left out (a run
   * whose perf lost events is left out on a busy machine, but is still a run of its side).
   */
  private static List<List<String>> sides(Cli compare) throws IOException {
    JsonNode json = CompareCliTest.json(compare, "compare.json");
    List<List<String>> sides = new ArrayList<>();
    for (String side : List.of("baseline_runs", "candidate_runs")) {
      List<String> runs = new ArrayList<>();
      json.get(side).forEach(r -> runs.add(r.asText()));
      sides.add(runs);
    }
    json.get("excluded_runs").forEach(e -> {
      String run = e.get("run").asText();
      sides.get(run.startsWith("new/") || e.get("reason").asText().contains("/new/") ? 1 : 0)
          .add(run);
    });
    sides.forEach(java.util.Collections::sort);
    return sides;
  }

  /** perf's -m, the fix the lost-events warning names, reaches perf; a bad size does not. */
  @Test
  void mmapPagesReachPerf(@TempDir Path out) throws Exception {
    Cli bad = E2e.cli("record", "--mmap-pages", "4x", "--out", out.toString(), "--", "true");
    assertEquals(2, bad.exit());
    assertThat(bad.stderr(), containsString("--mmap-pages takes a number of pages"));
    Cli cli = E2e.cli("record", "--mode", "system", "--mmap-pages", "1024", "--out",
        out.toString(), "--", mixed(), "5", "2");
    assertEquals(0, cli.exit(), cli.stderr());
    Path data = recordings(out, "mixed-").get(0);
    Process header = new ProcessBuilder("perf", "report", "--header-only", "-i",
        data.toString()).redirectErrorStream(true).start();
    String text = new String(header.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    header.waitFor();
    assertThat(text, containsString(" -m 1024 "));
  }

  @Test
  void refusesAProgramThatCannotStart(@TempDir Path out) {
    Cli cli = E2e.cli("record", "--out", out.toString(), "--", "/no/such/program");
    assertEquals(2, cli.exit());
    assertThat(cli.stderr(), containsString("cannot run '/no/such/program'"));
  }

  /**
   * nobody records a workload in process mode while root records the whole machine, so both see
   * the same execution; their load histograms of that process agree within 1 point (the times at
   * load, from switch records, within 2).
   * Both sides measure the same thing: the system-wide recording samples cpu-clock:u (user time
   * only, as the per-process one must). With cpu-clock (user and kernel time) on one execution of
   * mixed 60 2 the real time at load 1 was 0.741 system-wide vs 0.726 per process: mixed's
   * hand-offs spent 19.6 ms of CPU in the kernel at load 1 and 2.0 ms at load 2, which a :u
   * event cannot see; without those kernel samples the system-wide figure is 0.729. The times at
   * load from the switch records alone (kernel time included) agreed within 0.05 points, and
   * are compared too. Separate executions are no fair reference on a shared machine: there,
   * mixed 60 2's real time at load 1 ranged from 0.40 to 1.00 from one run to the next.
   */
  @Test
  void processModeAsNobodyAgreesWithSystemWide() throws Exception {
    List<List<String>> runs = List.of(
        List.of(workloads.resolve("phases").toString(), "0.4"),
        List.of(mixed(), "40", "2"),
        List.of(mixed(), "40", "4"),
        // Sleeping, a pipe, a condition variable, fsync, and more threads than CPUs.
        List.of(workloads.resolve("stalls").toString(), "0.5"));
    List<String> failures = new ArrayList<>();
    for (List<String> workload : runs) {
      List<String> disagreements = comparePair(workload);
      if (disagreements.isEmpty()) {
        continue;
      }
      // A disagreement is a wrong figure on one side: the pair is kept to find out which. (Once
      // in three CI runs the system-wide side was 6 points off, without its data; a pair caught
      // by hand later showed the cause: a sample interval fixed before the first sample,
      // OneExecutionTwoRecordingsTest.)
      String pair = "pair-" + String.join("-", workload).replaceAll(".*/", "");
      Path kept = repoRoot().resolve("pipelines/target/recordit-disagreements")
          .resolve(pair + "-" + System.currentTimeMillis());
      Files.createDirectories(kept.getParent());
      run(List.of("cp", "-r", shared.resolve(pair).toString(), kept.toString()));
      failures.addAll(disagreements);
      failures.add("  (both recordings are kept in " + kept + ")");
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  /**
   * Records {@code workload} per process as nobody while root records the whole machine, and
   * returns how their loads of that process disagree (empty when they agree).
   */
  private static List<String> comparePair(List<String> workload) throws Exception {
    List<String> failures = new ArrayList<>();
    String name = String.join(" ", workload).replaceAll(".*/", "");
    Path dir = Files.createDirectories(shared.resolve(
        "pair-" + String.join("-", workload).replaceAll(".*/", "")));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path sys = dir.resolve("sys.data");
    // No call graphs: only loads are compared, and the recording of the whole machine
    // stays small. sched_wakeup as users are advised to record it; on this VM the wake-ups into
    // an idle CPU 1 are lost with its switch-ins, so most repairs there use the samples.
    Process system = new ProcessBuilder("perf", "record", "-q", "-k", "mono", "-a",
        "-e", "cpu-clock:u", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup",
        "-o", sys.toString(), "--",
        "sleep", "300").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    Thread.sleep(1500);
    Path lib = repoRoot().resolve("pipelines/target");
    List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--",
        ProcessHandle.current().info().command().orElse("java"), "-cp",
        lib.resolve("loadprof.jar") + ":" + lib.resolve("lib") + "/*",
        "dev.loadprof.cli.LoadprofCli", "record", "--mode", "process", "--out",
        dir.resolve("proc").toString(), "--"));
    cmd.addAll(workload);
    // In the pair's directory, where nobody may write (stalls writes the file it fsyncs there).
    Process nobody = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(dir.resolve("nobody.log").toFile()).start();
    assertTrue(nobody.waitFor(10, TimeUnit.MINUTES));
    new ProcessBuilder("kill", "-INT", Long.toString(system.pid())).start().waitFor();
    system.waitFor(2, TimeUnit.MINUTES);
    String log = Files.readString(dir.resolve("nobody.log"), StandardCharsets.UTF_8);
    assertEquals(0, nobody.exitValue(), log);
    assertThat(log, containsString("mode process"));
    // What the mode cannot see is one info line with its fix, none of it a warning.
    assertThat(log, containsString("recorded per process (loadprof record's process mode)"));
    assertThat(log, org.hamcrest.Matchers.not(containsString(
        dev.loadprof.model.RunInfo.PER_PROCESS_LIMIT)));
    JsonNode proc = E2e.processByComm(
        E2e.JSON.readTree(dir.resolve("proc/summary.json").toFile()), name.split(" ")[0]);
    int pid = proc.get("pid").asInt();
    Cli whole = E2e.analyze(dir.resolve("sys-out"), "--event", "cpu-clock:u", "--pid",
        Integer.toString(pid), sys.toString()).assertOk();
    JsonNode sysProc = E2e.process(whole.summary(), pid);
    assertThat(proc.get("samples").asLong(), greaterThan(100L));
    // loadprof record --mode process records with --sample-cpu: its samples name their CPUs.
    JsonNode procRun = E2e.JSON.readTree(dir.resolve("proc/summary.json").toFile())
        .get("runs").get(0);
    assertThat(procRun.get("cpus").asInt(), greaterThan(0));
    // Both sample cpu-clock:u at perf's 4000 Hz. The system-wide side once took a 1 ms guess,
    // fixed before its first sample (a quiet machine's first second has no user-mode sample).
    compare(failures, name + ": sample interval in ns",
        procRun.get("sample_interval_ns").asDouble(),
        whole.summary().get("runs").get(0).get("sample_interval_ns").asDouble(), 0);
    // More threads on a CPU than the machine has CPUs is impossible: exiting threads, whose
    // last OUT a per-thread recording lacks, once made up 48 us at load 3 on 2 CPUs.
    int cpus = Runtime.getRuntime().availableProcessors(); // the recording's machine
    for (int k = cpus + 1; proc.get("time_at_load_ns").has(Integer.toString(k)); k++) {
      compare(failures, name + ": ns at load " + k + " on " + cpus + " CPUs",
          proc.get("time_at_load_ns").get(Integer.toString(k)).asDouble(), 0, 0);
    }
    long procSamples = proc.get("samples").asLong();
    long sysSamples = sysProc.get("samples").asLong();
    for (int k = 1; k <= 4; k++) {
      // The time at each load comes from the switch records, so 2 points: the per-process
      // records are the threads' own and some of this VM's switch-ins are repaired, and on
      // mixed 40 4 (4 threads on 2 CPUs) the two once differed by 1.14 points (load 2: 0.521
      // vs 0.532) in 1 of 4 CI runs, while the other runs agreed within 1.
      compare(failures, name + ": share of time on CPU at load " + k,
          onCpuShare(proc.get("time_at_load_ns"), k),
          onCpuShare(sysProc.get("time_at_load_ns"), k), 0.02);
      // The real-time histogram is estimated from samples, and the two recordings sample
      // the execution at independent instants: 1 point plus three standard errors of the
      // difference of two shares (a short run's 3,000 samples alone give ~1.3 points).
      double p = E2e.at(sysProc.get("realtime_histogram"), k);
      double noise = 3 * Math.sqrt(p * (1 - p) * (1.0 / procSamples + 1.0 / sysSamples));
      compare(failures, name + ": real time at load " + k + " (" + procSamples + " vs "
              + sysSamples + " samples)",
          E2e.at(proc.get("realtime_histogram"), k), p, 0.01 + noise);
    }
    return failures;
  }

  private static void compare(List<String> failures, String what, double perProcess,
      double systemWide, double within) {
    String line = what + ": per process " + perProcess + " vs system-wide " + systemWide
        + " (within " + within + ")";
    System.out.println(line);
    if (Math.abs(perProcess - systemWide) > within) {
      failures.add(line);
    }
  }

  /** time_at_load_ns[k] over the time at any load k >= 1. */
  private static double onCpuShare(JsonNode timeAtLoad, int k) {
    double onCpu = 0;
    for (int j = 1; timeAtLoad.has(Integer.toString(j)); j++) {
      onCpu += E2e.at(timeAtLoad, j);
    }
    return onCpu == 0 ? 0 : E2e.at(timeAtLoad, k) / onCpu;
  }

  /** Ctrl-C (SIGINT to loadprof) stops the program and the recording is still analyzed. */
  @Test
  void sigintStopsTheProgramAndAnalyzesWhatWasRecorded() throws Exception {
    Path dir = shared.resolve("sigint");
    Path lib = repoRoot().resolve("pipelines/target");
    // perl restores SIGINT's default action first: a test JVM started from a background job
    // inherits SIGINT ignored, and then no process under it could be interrupted at all.
    Process loadprof = new ProcessBuilder("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV",
        ProcessHandle.current().info().command().orElse("java"), "-cp", lib.resolve("loadprof.jar") + ":" + lib.resolve("lib") + "/*",
        "dev.loadprof.cli.LoadprofCli", "record", "--out", dir.toString(), "--", mixed(),
        "100000", "2").redirectErrorStream(true).redirectOutput(
            shared.resolve("sigint.log").toFile()).start();
    // Wait until the program runs under perf, then interrupt loadprof only.
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < deadline && loadprof.descendants()
        .noneMatch(p -> p.info().command().orElse("").endsWith("/mixed"))) {
      Thread.sleep(200);
    }
    Thread.sleep(2000);
    new ProcessBuilder("kill", "-INT", Long.toString(loadprof.pid())).start().waitFor();
    assertTrue(loadprof.waitFor(5, TimeUnit.MINUTES));
    String log = Files.readString(shared.resolve("sigint.log"), StandardCharsets.UTF_8);
    assertEquals(130, loadprof.exitValue(), log);
    assertThat(log, containsString("interrupted; analyzing what was recorded"));
    assertThat(log, containsString("Real time at load:"));
  }

  /**
   * A clean system-wide recording, analyzed as perf.data and as its text: no warning (perf's own
   * few duplicate records are one info line when there are any), nothing told twice.
   */
  @Test
  void aCleanRecordingEndsWithoutAWarning(@TempDir Path out) throws Exception {
    Path data = out.resolve("phases.data");
    assertEquals(0, run(List.of("perf", "record", "-q", "-k", "mono", "-a", "-g", "-e",
        "cpu-clock", "-e", "sched:sched_switch", "-o", data.toString(), "--",
        workloads.resolve("phases").toString())));
    Path text = out.resolve("phases.txt");
    Process script = new ProcessBuilder("perf", "script", "-f", "-i", data.toString(), "-F",
        "comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso", "--ns", "--show-task-events")
        .redirectOutput(text.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    assertEquals(0, script.waitFor());
    for (Path input : List.of(data, text)) {
      Cli cli = E2e.analyze(out.resolve("out-" + input.getFileName()), input.toString())
          .assertOk();
      String console = cli.stdout() + cli.stderr();
      assertThat(console, org.hamcrest.Matchers.not(containsString("warning")));
      assertThat(console, org.hamcrest.Matchers.not(containsString("--show-task-events")));
      JsonNode health = cli.summary().get("runs").get(0).get("health");
      long duplicates = health.path("duplicate_samples").asLong()
          + health.path("duplicate_switches").asLong() + health.path("duplicate_wakeups").asLong();
      assertEquals(duplicates > 0, cli.stderr().contains("loadprof: info: " + duplicates
          + " exact duplicate records"), duplicates + " duplicates: " + cli.stderr());
      assertEquals(0, cli.summary().get("runs").get(0).get("warnings").size(), console);
    }
  }

  /** A recording without sched_switch is bad input, and the reason is said exactly once. */
  @Test
  void aRecordingWithoutSchedSwitchIsSaidOnce(@TempDir Path out) throws Exception {
    Path data = out.resolve("noswitch.data");
    assertEquals(0, run(List.of("perf", "record", "-q", "-k", "mono", "-a", "-g", "-e",
        "cpu-clock", "-o", data.toString(), "--", mixed(), "20", "2")));
    Cli cli = E2e.analyze(out.resolve("out"), data.toString());
    assertEquals(2, cli.exit(), cli.stderr());
    String console = cli.stdout() + cli.stderr();
    assertEquals(1, console.split("no sched:sched_switch records", -1).length - 1, console);
  }

  /** analyze X.data decodes it in parallel pieces; the outputs equal those of its text. */
  @Test
  void perfDataAnalyzedDirectlyEqualsItsTextTrace(@TempDir Path out) throws Exception {
    Path data = out.resolve("m.data");
    assertEquals(0, run(List.of("perf", "record", "-q", "-k", "mono", "-a", "-g", "-e",
        "cpu-clock", "-e", "sched:sched_switch", "-o", data.toString(), "--", mixed(), "30",
        "2")));
    Path text = out.resolve("text/m.txt");
    Files.createDirectories(text.getParent());
    Process script = new ProcessBuilder("perf", "script", "-f", "-i", data.toString(), "--ns",
        "--show-task-events", "--show-switch-events", "--show-lost-events", "-F",
        "comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso")
        .redirectOutput(text.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    assertEquals(0, script.waitFor());
    // The workload's processes only: a system-wide recording also holds other processes (this
    // test's own JVM among them), and perf symbolizes with the files present when it runs, so a
    // library such a process deletes between two decodes turns its frames into [unknown].
    Cli fromText = E2e.analyze(out.resolve("from-text"), "--comm", "mixed", text.toString())
        .assertOk();
    for (String split : List.of("time", "cpu")) {
      Cli fromData = E2e.analyze(out.resolve("from-data-" + split), "--decode-split=" + split,
          "--decode-pieces=3", "--comm", "mixed", data.toString()).assertOk();
      for (String file : List.of("histogram.txt", "functions.txt", "flame.folded",
          "summary.txt")) {
        assertEquals(fromText.file(file), fromData.file(file), split + ": " + file);
      }
    }
    // perf.data knows the build ids of the objects it sampled; pprof's mappings carry them.
    // The text trace has none, so its mappings have none.
    java.util.Map<String, String> stated = dev.loadprof.perfdata.BuildIds.read(data);
    java.util.Map<String, String> inData = buildIdsOf(out.resolve("from-data-time"));
    String workload = Path.of(mixed()).toRealPath().toString();
    assertTrue(stated.containsKey(workload), stated.toString());
    assertEquals(stated.get(workload), inData.get(workload), inData.toString());
    assertTrue(inData.keySet().stream().filter(stated::containsKey)
        .allMatch(f -> stated.get(f).equals(inData.get(f))), inData + " vs " + stated);
    assertTrue(buildIdsOf(out.resolve("from-text")).values().stream().allMatch(String::isEmpty));
    // An archive of the recording keeps them.
    Path archive = out.resolve("archive");
    E2e.cli("archive", "--out", archive.toString(), data.toString()).assertOk();
    E2e.analyze(out.resolve("from-archive"), "--comm", "mixed", archive.toString()).assertOk();
    assertEquals(inData, buildIdsOf(out.resolve("from-archive")));
  }

  /** Mapping file name -> build id ("" when none) of a profile.pb.gz. */
  static java.util.Map<String, String> buildIdsOf(Path outDir) throws IOException {
    com.google.perftools.profiles.ProfileProto.Profile p;
    try (java.io.InputStream in = new java.util.zip.GZIPInputStream(
        Files.newInputStream(outDir.resolve("profile.pb.gz")))) {
      p = com.google.perftools.profiles.ProfileProto.Profile.parseFrom(in);
    }
    java.util.Map<String, String> ids = new java.util.TreeMap<>();
    for (com.google.perftools.profiles.ProfileProto.Mapping m : p.getMappingList()) {
      ids.put(p.getStringTable((int) m.getFilename()), p.getStringTable((int) m.getBuildId()));
    }
    return ids;
  }
}
