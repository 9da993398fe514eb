package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ./loadprof launcher's choices by input size, read from its dry run
 * (LOADPROF_DRY_RUN=1 prints the java command and changes nothing): C1 and the serial collector
 * for the small example, big traces in the CLI's JVM too (embedded Flink only when
 * LOADPROF_FLINK_FROM_MB asks, with a console line), and the user's --runner always wins. Big inputs are sparse files: only their size is read. The
 * class-data archives: made by training runs (LOADPROF_CDS=train), one per classpath, mapped
 * only while current, never dumped by a user's job; checked in a copy of the launcher beside a
 * fake build, with a fake java on the PATH, so that exit codes and files can be watched.
 */
class LauncherTest {
  private static final Path LAUNCHER = Paths.get("..", "loadprof").toAbsolutePath().normalize();
  private static final String EXAMPLE =
      Paths.get("..", "examples", "phases.txt.gz").toAbsolutePath().normalize().toString();

  @TempDir Path dir;

  record DryRun(String command, String console) {}

  private static DryRun dryRun(String... args) throws IOException, InterruptedException {
    return dryRun(LAUNCHER, args);
  }

  private static DryRun dryRun(Path launcher, String... args)
      throws IOException, InterruptedException {
    return dryRun(launcher, Map.of(), args);
  }

  private static DryRun dryRunWith(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return dryRun(LAUNCHER, env, args);
  }

  private static DryRun dryRun(Path launcher, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", launcher.toString()));
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command);
    b.environment().put("LOADPROF_DRY_RUN", "1");
    b.environment().remove("LOADPROF_JAVA_OPTS");
    b.environment().remove("LOADPROF_CDS");
    b.environment().remove("LOADPROF_FLINK_FROM_MB");
    b.environment().putAll(env);
    Process p = b.start();
    assertEquals(true, p.waitFor(60, TimeUnit.SECONDS), "the launcher's dry run hung");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), err);
    return new DryRun(out.trim(), err);
  }

  private Path sparse(String name, long bytes) throws IOException {
    Path file = dir.resolve(name);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(bytes);
    }
    return file;
  }

  @Test
  void theExampleStartsWithC1AndTheSerialCollectorOnTheDirectRunner() throws Exception {
    DryRun run = dryRun("analyze", "-o", dir.resolve("out").toString(), EXAMPLE);
    assertThat(run.command(), containsString("-XX:TieredStopAtLevel=1"));
    assertThat(run.command(), containsString("-XX:+UseSerialGC"));
    assertThat(run.command(), containsString("LoadprofCli analyze -o"));
    assertThat(run.command(), not(containsString("--runner")));
    assertEquals("", run.console());
  }

  @Test
  void aSmallAnalyzeOnTheDirectRunnerLeavesFlinksJarsOut() throws Exception {
    for (String[] runner : new String[][] {{}, {"--runner", "direct"}, {"--runner=direct"}}) {
      List<String> args = new ArrayList<>(List.of("analyze"));
      args.addAll(List.of(runner));
      args.add(EXAMPLE);
      String command = dryRun(args.toArray(new String[0])).command();
      if (Files.isDirectory(LAUNCHER.resolveSibling("pipelines/target/lib"))) { // after package
        assertThat(command, containsString("beam-runners-direct-java"));
      }
      assertThat(command, not(containsString("flink")));
      assertThat(command, not(containsString("lib/*")));
    }
  }

  /** compare and nightly of local traces run in the CLI's JVM as analyze does: the same JVM. */
  @Test
  void compareAndNightlyOfSmallTracesStartAsAnalyzeDoes() throws Exception {
    for (String[] args : new String[][] {
        {"compare", "-o", dir.resolve("out").toString(), "--baseline", EXAMPLE, "--candidate",
            EXAMPLE},
        {"nightly", "-o", dir.resolve("out").toString(), "--history", "3", EXAMPLE}}) {
      String command = dryRun(args).command();
      assertThat(command, containsString("-XX:TieredStopAtLevel=1"));
      assertThat(command, containsString("-XX:+UseSerialGC"));
      assertThat(command, not(containsString("lib/*")));
    }
  }

  @Test
  void flinkNamedOrAnotherCommandKeepsFlinksJars() throws Exception {
    for (String[] args : new String[][] {{"analyze", "--runner=flink", EXAMPLE},
        {"analyze", "--parallelism=2", EXAMPLE}, {"analyze", "--runner", "flink-cluster", EXAMPLE},
        {"archive", "--out", "a", "b"}}) {
      assertThat(String.join(" ", args), dryRun(args).command(), containsString("lib/*"));
    }
  }

  @Test
  void longerRunsLetC2CompileOnlyWhatStaysHot() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    assertThat(dryRun("analyze", big.toString()).command(),
        containsString("-XX:Tier4InvocationThreshold=50000"));
    assertThat(dryRun("analyze", big.toString()).command(),
        containsString("-XX:FreqInlineSize=80"));
    assertThat(dryRun("analyze", EXAMPLE).command(), not(containsString("Tier4")));
    assertThat(dryRun("analyze", EXAMPLE).command(), not(containsString("InlineSize")));
  }

  @Test
  void longerRunsUseTheParallelCollectorUnlessTheUserPickedOne() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    assertThat(dryRun("analyze", big.toString()).command(), containsString("-XX:+UseParallelGC"));
    assertThat(dryRun("analyze", EXAMPLE).command(), not(containsString("ParallelGC")));
    String picked = dryRunWith(Map.of("LOADPROF_JAVA_OPTS", "-Xmx3g -XX:+UseG1GC"), "analyze",
        big.toString()).command();
    assertThat(picked, not(containsString("ParallelGC")));
    assertThat(picked, containsString("-XX:+UseG1GC"));
  }

  @Test
  void longerRunsKeepTheCodeAfterTheReadAtC1WithDirectivesThisJvmAccepts() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    String command = dryRun("analyze", big.toString()).command();
    Matcher file = Pattern.compile("-D" + CompilerDirectives.PROPERTY + "=(\\S+)")
        .matcher(command);
    assertTrue(file.find(), command);
    // Nothing that mutes the JVM's own messages, nor a flag that prints on stdout.
    assertThat(command, not(containsString("DisplayVMOutput")));
    assertThat(command, not(containsString("CompilerDirectivesFile")));
    assertThat(dryRun("analyze", EXAMPLE).command(), not(containsString("Directives")));
    // The CLI adds them as it starts (in this JVM here): a file it cannot parse is refused.
    assertThat(CompilerDirectives.add(file.group(1)), containsString("1 compiler directives added"));
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "[ { match: \"x/Y.*\", c2: { Exclude: tru } } ]");
    assertThat(CompilerDirectives.add(broken.toString()), containsString("Could not load file"));
  }

  @Test
  void aBigTraceStaysInTheClisJvm() throws Exception {
    Path big = sparse("big.txt", 3L << 30);
    DryRun run = dryRun("analyze", big.toString());
    assertThat(run.command(), containsString("LoadprofCli analyze " + big));
    assertThat(run.command(), not(containsString("--runner")));
    assertEquals("", run.console());
  }

  @Test
  void flinkFromMbSendsABigTraceToEmbeddedFlinkAndTheConsoleSaysSo() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    DryRun run = dryRunWith(Map.of("LOADPROF_FLINK_FROM_MB", "512"), "analyze", big.toString());
    assertThat(run.command(), containsString("LoadprofCli analyze --runner flink " + big));
    assertThat(run.command(), containsString("lib/*"));
    assertThat(run.command(), not(containsString("TieredStopAtLevel")));
    assertThat(run.console(), containsString("about 600 MB of trace text: running on embedded"
        + " Flink (--runner flink, LOADPROF_FLINK_FROM_MB=512)"));
    Path gz = sparse("big.txt.gz", 40L << 20); // 16 x 40 MB = 640 MB of text
    assertThat(dryRunWith(Map.of("LOADPROF_FLINK_FROM_MB", "512"), "analyze", gz.toString())
        .command(), containsString("--runner flink"));
    Files.delete(gz);
  }

  @Test
  void theUsersRunnerWins() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    for (String[] runner : new String[][] {{"--runner", "direct"}, {"--runner=direct"}}) {
      List<String> args = new ArrayList<>(List.of("analyze"));
      args.addAll(List.of(runner));
      args.add(big.toString());
      DryRun run = dryRunWith(Map.of("LOADPROF_FLINK_FROM_MB", "512"),
          args.toArray(new String[0]));
      assertThat(run.command(), not(containsString("--runner flink")));
      assertEquals("", run.console());
    }
  }

  @Test
  void aSmallPerfDataFileStartsWithC1AndABigOneKeepsC2() throws Exception {
    Path small = sparse("small.data", 30L << 20);
    assertThat(dryRun("analyze", small.toString()).command(),
        containsString("-XX:TieredStopAtLevel=1"));
    // perf.data counts at its own size for C1 (not its text's): 200 MB of it is still small
    Path mid = sparse("mid.data", 200L << 20);
    assertThat(dryRun("analyze", mid.toString()).command(),
        containsString("-XX:TieredStopAtLevel=1"));
    // and the serial collector with C1 (less CPU and memory than G1 on perf.data)
    assertThat(dryRun("analyze", mid.toString()).command(),
        containsString("-XX:+UseSerialGC"));
    Path big = sparse("big.data", 300L << 20);
    assertThat(dryRun("analyze", big.toString()).command(),
        not(containsString("TieredStopAtLevel")));
    assertThat(dryRun("analyze", big.toString()).command(), not(containsString("SerialGC")));
    // text beside it counts for the collector as before: 40 MB of text keeps G1
    Path text40 = sparse("forty.txt", 40L << 20);
    assertThat(dryRun("analyze", mid.toString(), text40.toString()).command(),
        not(containsString("SerialGC")));
    // text of that size keeps C2
    Path text = sparse("mid.txt", 300L << 20);
    assertThat(dryRun("analyze", text.toString()).command(),
        not(containsString("TieredStopAtLevel")));
  }

  @Test
  void aMidSizedTraceKeepsTheDirectRunnerAndC2() throws Exception {
    Path mid = sparse("mid.txt", 300L << 20);
    DryRun run = dryRun("analyze", mid.toString());
    assertThat(run.command(), not(containsString("TieredStopAtLevel")));
    assertThat(run.command(), not(containsString("--runner")));
  }

  // ---------------------------------------------------------------- class-data archives

  /** A copy of the launcher beside a fake, current build: jars, target/lib, stores. */
  private Path fakeHome() throws IOException {
    Path home = dir.resolve("home");
    Path target = Files.createDirectories(home.resolve("pipelines/target"));
    for (String module : List.of("schemas", "transforms", "stores", "pipelines")) {
      Files.createDirectories(home.resolve(module).resolve("src/main"));
      Files.writeString(home.resolve(module).resolve("pom.xml"), "");
    }
    Files.writeString(home.resolve("pom.xml"), "");
    Files.createDirectories(home.resolve("examples"));
    Files.writeString(home.resolve("examples/phases.txt.gz"), "");
    Files.writeString(target.resolve("loadprof.jar"), "jar");
    Files.createDirectories(target.resolve("lib"));
    Files.writeString(target.resolve("lib/beam-sdks-java-core.jar"), "jar");
    Files.writeString(target.resolve("lib/flink-core.jar"), "jar");
    Files.createDirectories(home.resolve("stores/target/lib-stores"));
    Files.writeString(home.resolve("stores/target/loadprof-stores.jar"), "jar");
    Files.copy(LAUNCHER, home.resolve("loadprof"));
    age(home, 120);
    Files.writeString(target.resolve(".loadprof-built"), ""); // built after every source
    return home;
  }

  /** Sets every file's time under {@code root} to {@code seconds} ago. */
  private static void age(Path root, long seconds) throws IOException {
    java.nio.file.attribute.FileTime then = java.nio.file.attribute.FileTime.fromMillis(
        System.currentTimeMillis() - seconds * 1000);
    try (var files = Files.walk(root)) {
      for (Path f : files.toList()) {
        Files.setLastModifiedTime(f, then);
      }
    }
  }

  private static Path archive(Path home, String kind) throws IOException {
    Path cds = Files.createDirectories(home.resolve("pipelines/target/cds"));
    return Files.writeString(cds.resolve(kind + ".jsa"), "archive");
  }

  @Test
  void aUsersJobNeverDumpsAClassDataArchive() throws Exception {
    Path big = sparse("big.txt", 600L << 20);
    for (String[] args : new String[][] {{"analyze", EXAMPLE}, {"analyze", big.toString()},
        {"compare", "a", "b"}, {"archive", "-o", dir.toString(), EXAMPLE}}) {
      String command = dryRun(args).command();
      assertThat(command, not(containsString("ArchiveClassesAtExit")));
      assertThat(command, not(containsString("Xshare:dump")));
      assertThat(command, not(containsString("DumpLoadedClassList")));
    }
  }

  @Test
  void eachClasspathMapsItsOwnCurrentArchive() throws Exception {
    Path home = fakeHome();
    for (String kind : List.of("direct", "full", "direct-stores", "full-stores")) {
      archive(home, kind);
    }
    Path launcher = home.resolve("loadprof");
    Path small = Files.writeString(dir.resolve("small.txt"), "x");
    String cds = home.resolve("pipelines/target/cds") + "/";
    assertThat(dryRun(launcher, "analyze", small.toString()).command(),
        containsString("-XX:SharedArchiveFile=" + cds + "direct.jsa "));
    assertThat(dryRun(launcher, "archive", "--out", "a", "b").command(),
        containsString("-XX:SharedArchiveFile=" + cds + "full.jsa "));
    // A store's input runs in this JVM or on the DirectRunner: no Flink jars, whatever its size
    // (Beam's options registry, which a job on a store builds, is smaller without them).
    assertThat(dryRun(launcher, "analyze", "s3://bucket/run.txt").command(),
        containsString("-XX:SharedArchiveFile=" + cds + "direct-stores.jsa "));
    assertThat(dryRun(launcher, "archive", "--out", "s3://bucket/a", small.toString()).command(),
        containsString("-XX:SharedArchiveFile=" + cds + "direct-stores.jsa "));
    assertThat(dryRun(launcher, "analyze", "--runner", "flink", "s3://bucket/run.txt").command(),
        containsString("-XX:SharedArchiveFile=" + cds + "full-stores.jsa "));
    assertThat(dryRun(launcher, "analyze", "--parallelism=4", "s3://bucket/run.txt").command(),
        containsString("-XX:SharedArchiveFile=" + cds + "full-stores.jsa "));
    assertThat(dryRun(launcher, "analyze", "--runner", "flink", small.toString()).command(),
        containsString("-XX:SharedArchiveFile=" + cds + "full.jsa "));
    assertThat(dryRun(launcher, "analyze", small.toString()).command(),
        containsString("-XX:ErrorFile=")); // a crash report never lands in the user's directory
  }

  @Test
  void aMissingOrStaleArchiveIsNotMapped() throws Exception {
    Path home = fakeHome();
    Path launcher = home.resolve("loadprof");
    Path small = Files.writeString(dir.resolve("small.txt"), "x");
    assertThat(dryRun(launcher, "analyze", small.toString()).command(),
        not(containsString("SharedArchiveFile")));
    Path direct = archive(home, "direct");
    Files.setLastModifiedTime(direct, java.nio.file.attribute.FileTime.fromMillis(
        System.currentTimeMillis() - 200_000)); // older than the jars: a build came after it
    assertThat(dryRun(launcher, "analyze", small.toString()).command(),
        not(containsString("SharedArchiveFile")));
  }

  /** A fake java on a PATH of its own: logs its arguments, and dies like the JVM did once. */
  private Path fakeJava(String script) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/bash\n" + script);
    java.toFile().setExecutable(true);
    return bin;
  }

  private record Run(int exit, String stderr) {}

  private static Run launch(Path launcher, Path bin, Path cwd, Map<String, String> env,
      String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", launcher.toString()));
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command).directory(cwd.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    b.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    b.environment().remove("LOADPROF_JAVA_OPTS");
    b.environment().remove("LOADPROF_CDS");
    b.environment().putAll(env);
    Process p = b.start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(true, p.waitFor(60, TimeUnit.SECONDS));
    return new Run(p.exitValue(), err);
  }

  @Test
  void theJobsExitCodeIsTheLaunchersAndTheWorkingDirectoryStaysEmpty() throws Exception {
    Path home = fakeHome();
    archive(home, "direct");
    Path bin = fakeJava("echo \"$@\" > " + dir.resolve("java-args") + "; exit 134\n");
    Path cwd = Files.createDirectory(dir.resolve("user"));
    Path small = Files.writeString(dir.resolve("small.txt"), "x");
    Run run = launch(home.resolve("loadprof"), bin, cwd, Map.of(), "analyze", small.toString());
    assertEquals(134, run.exit(), run.stderr());
    String args = Files.readString(dir.resolve("java-args"));
    assertThat(args, not(containsString("ArchiveClassesAtExit")));
    assertThat(args, not(containsString("Xshare:dump")));
    assertThat(args, not(containsString("DumpLoadedClassList")));
    assertThat(args, containsString("-XX:ErrorFile="));
    try (var files = Files.list(cwd)) {
      assertEquals(List.of(), files.toList());
    }
  }

  @Test
  void trainingMakesOneArchivePerClasspathAndNeverFails() throws Exception {
    Path home = fakeHome();
    // Lists the classes, then dumps the archive it is asked for, except on the full classpath,
    // where it crashes at exit as JDK 17.0.15 once did, leaving a crash file in its working
    // directory.
    Path bin = fakeTrainingJava(
        "case \"$*\" in *'lib/*'*) echo crash > hs_err_pid1.log; exit 134;; esac",
        "if [ -n \"$list\" ]; then echo classes > \"$list\"; fi",
        "case \"$*\" in *-Xshare:dump*) [ -s \"${out%/*}/classes\" ] && echo archive > \"$out\";;"
            + " esac");
    Path cwd = Files.createDirectory(dir.resolve("user"));
    Run run = train(home, bin, cwd);
    assertEquals(0, run.exit(), run.stderr());
    Path cds = home.resolve("pipelines/target/cds");
    assertEquals(true, Files.isRegularFile(cds.resolve("direct.jsa")), run.stderr());
    assertEquals(true, Files.isRegularFile(cds.resolve("direct-stores.jsa")), run.stderr());
    assertEquals(false, Files.exists(cds.resolve("full.jsa")), run.stderr());
    assertThat(run.stderr(), containsString("no class-data archive for the full classpath"
        + " (the training run exited 134"));
    try (var files = Files.list(cwd)) {
      assertEquals(List.of(), files.toList());
    }
    // The new archive is current: the next run of that classpath maps it.
    Path small = Files.writeString(dir.resolve("small.txt"), "x");
    assertThat(dryRun(home.resolve("loadprof"), "analyze", small.toString()).command(),
        containsString("-XX:SharedArchiveFile=" + cds.resolve("direct.jsa")));
  }

  @Test
  void trainingRunsHaveNoJitSoThatNoMethodIsArchivedQueuedForCompilation() throws Exception {
    Path home = fakeHome();
    // Lists the classes; dumps the archive only when it runs without a JIT (-Xint).
    Path bin = fakeTrainingJava(
        "if [ -n \"$list\" ]; then echo classes > \"$list\"; exit 0; fi",
        "case \" $* \" in *' -Xint '*) echo archive > \"$out\";; *) exit 1;; esac");
    Run run = train(home, bin, Files.createDirectory(dir.resolve("user")));
    assertEquals(0, run.exit(), run.stderr());
    Path cds = home.resolve("pipelines/target/cds");
    for (String kind : new String[] {"direct", "full", "direct-stores", "full-stores"}) {
      assertEquals(true, Files.isRegularFile(cds.resolve(kind + ".jsa")), run.stderr());
    }
  }

  /**
   * The -stores archives also hold the classes of a job on S3: the training runs an analyze of
   * an archive on the read-only S3 endpoint it starts (CdsTrainingStore), and dumps both class
   * lists; the other archives hold the local job's alone.
   */
  @Test
  void storesArchivesAlsoListTheClassesOfAJobOnS3() throws Exception {
    Path home = fakeHome();
    // The endpoint says it listens on port 4242; the job on S3 lists its classes only when it
    // is sent there; a dump writes the class list it was given as the archive.
    Path bin = fakeTrainingJava(
        "case \"$*\" in *CdsTrainingStore*) echo 4242 > \"${@: -1}\"; exec sleep 30;; esac",
        "case \"$*\" in *s3://loadprof-cds-training/archive*)"
            + " [ \"$AWS_ENDPOINT_URL\" = http://127.0.0.1:4242 ] && echo s3-classes > \"$list\";"
            + " exit 1;; esac",
        "if [ -n \"$list\" ]; then echo local-classes > \"$list\"; fi",
        "for a in \"$@\"; do case \"$a\" in -XX:SharedClassListFile=*)"
            + " classes=\"${a#*=}\";; esac; done",
        "case \"$*\" in *-Xshare:dump*) cp \"$classes\" \"$out\";; esac");
    Run run = train(home, bin, Files.createDirectory(dir.resolve("user")));
    assertEquals(0, run.exit(), run.stderr());
    Path cds = home.resolve("pipelines/target/cds");
    for (String kind : new String[] {"direct-stores", "full-stores"}) {
      assertEquals(List.of("local-classes", "s3-classes"),
          Files.readAllLines(cds.resolve(kind + ".jsa")), kind);
    }
    for (String kind : new String[] {"direct", "full"}) {
      assertEquals(List.of("local-classes"), Files.readAllLines(cds.resolve(kind + ".jsa")),
          kind);
    }
  }

  /**
   * A fake JVM for training runs: BODY's shell lines see the class list it is asked to write in
   * $list and the archive it is asked to dump in $out (each empty when not asked).
   */
  private Path fakeTrainingJava(String... body) throws IOException {
    List<String> lines = new ArrayList<>(List.of("list= out=",
        "for a in \"$@\"; do case \"$a\" in -XX:DumpLoadedClassList=*) list=\"${a#*=}\";;"
            + " -XX:SharedArchiveFile=*) out=\"${a#*=}\";; esac; done"));
    lines.addAll(List.of(body));
    lines.add("");
    return fakeJava(String.join("\n", lines));
  }

  private static Run train(Path home, Path bin, Path cwd) throws Exception {
    return launch(home.resolve("loadprof"), bin, cwd, Map.of("LOADPROF_CDS", "train"));
  }
}
