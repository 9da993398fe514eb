package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf.data recorded in the test (system-wide, a fraction of a second) and then damaged: a
 * damaged file is bad input (exit 2) with a message that says so, not perf's unrelated notes;
 * a recording without call chains (no -g) is said once.
 */
class PerfDataInputIT {
  @TempDir static Path dir;
  static Path withCallChains;
  static Path withoutCallChains;

  @BeforeAll
  static void record() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF);
    RequiredTools.requireRoot("a system-wide recording needs it");
    withCallChains = record("g.data", "-g");
    withoutCallChains = record("nog.data");
  }

  private static Path record(String name, String... extra) throws Exception {
    Path data = dir.resolve(name);
    List<String> cmd = new java.util.ArrayList<>(List.of("perf", "record", "-q", "-k", "mono",
        "-a", "-e", "cpu-clock", "-e", "sched:sched_switch", "-o", data.toString()));
    cmd.addAll(List.of(extra));
    // Long enough for hundreds of samples on a quiet machine (the no-call-chain warning needs
    // 100: 30,000 rounds gave 97 there).
    cmd.addAll(List.of("--", "sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertEquals(true, p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), "perf record failed");
    return data;
  }

  private static Cli analyze(Path data, String outName) {
    return E2e.cli("analyze", "--out", dir.resolve(outName).toString(), data.toString());
  }

  /** Through perf script, the path whose damage perf itself reports. */
  private static Cli analyzeWithPerfScript(Path data, String outName) {
    return E2e.cli("analyze", "--perf-data-reader", "perf-script", "--out",
        dir.resolve(outName).toString(), data.toString());
  }

  /**
   * The native reader (the default) keeps what it read around the damage and reports the rest
   * as malformed: bad input (exit 2) when nothing usable is left, else the figures with a
   * warning that names the file. Never a silent exit 0, never a crash (exit 1).
   */
  private static void assertBadInputByDefault(Path file, String outName) {
    Cli cli = analyze(file, outName);
    if (cli.exit() == 0) {
      // "1 warning (figures may be off" or "3 warnings (figures may be off"
      assertThat(cli.stderr(), containsString(" (figures may be off"));
      assertThat(cli.stderr(), containsString(file + ": "));
    } else {
      assertEquals(2, cli.exit(), cli.stderr());
      assertThat(cli.stderr(), containsString(file.toString()));
    }
  }

  private static void assertDamaged(Cli cli, Path file) {
    assertEquals(2, cli.exit(), cli.stderr());
    assertThat(cli.stderr(), containsString(file + ": the perf.data file is damaged (perf: "));
    assertThat(cli.stderr(), containsString("record it again"));
    assertThat(cli.stderr(), not(containsString("not valid for hardware events")));
    assertEquals(1, cli.stderr().lines().count(), cli.stderr());
  }

  /** The file with {@code bytes} bytes from {@code offset} overwritten. */
  private static Path overwrite(String name, long offset, int bytes) throws IOException {
    byte[] d = Files.readAllBytes(withCallChains);
    for (int i = 0; i < bytes; i++) {
      d[(int) offset + i] ^= (byte) 0x5a;
    }
    Path damaged = dir.resolve(name);
    Files.write(damaged, d);
    return damaged;
  }

  /** perf.data's header: magic, size, attr_size, then the attrs and data sections (offset, size). */
  private static long headerField(int index) throws IOException {
    byte[] header = new byte[104];
    try (var in = Files.newInputStream(withCallChains)) {
      assertEquals(104, in.readNBytes(header, 0, 104));
    }
    return ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getLong(index * 8);
  }

  @Test
  void damagedAttributesAreBadInput() throws Exception {
    Path damaged = overwrite("attrs.data", headerField(3), 64);
    assertDamaged(analyzeWithPerfScript(damaged, "attrs"), damaged);
    assertBadInputByDefault(damaged, "attrs-native");
  }

  @Test
  void aTruncatedFileIsBadInput() throws Exception {
    byte[] d = Files.readAllBytes(withCallChains);
    Path cut = dir.resolve("cut.data");
    Files.write(cut, java.util.Arrays.copyOf(d, d.length / 2));
    assertDamaged(analyzeWithPerfScript(cut, "cut"), cut);
    assertBadInputByDefault(cut, "cut-native");
  }

  @Test
  void damagedRecordsAreBadInput() throws Exception {
    long dataOffset = headerField(5);
    long dataSize = headerField(6);
    Path damaged = overwrite("records.data", dataOffset + dataSize / 2, 4096);
    assertDamaged(analyzeWithPerfScript(damaged, "records"), damaged);
    assertBadInputByDefault(damaged, "records-native");
  }

  /**
   * Out of heap while reading perf.data (with -Xmx24m the kernel symbols' loading thread ran out
   * first and printed the JVM's stack trace) is the one line that names the heap.
   */
  @Test
  void outOfHeapIsOneLineWithoutAStackTrace() throws Exception {
    // The launcher's classpath (the packaged jars), not the tests' much larger one.
    Path target = RecordIT.repoRoot().resolve("pipelines/target");
    Path log = dir.resolve("oom.log");
    Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
        "-Xmx24m", "-cp", target.resolve("loadprof.jar") + ":" + target.resolve("lib") + "/*",
        "dev.loadprof.cli.LoadprofCli", "analyze", "-q", "-o", dir.resolve("oom").toString(),
        withCallChains.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertEquals(true, p.waitFor(5, TimeUnit.MINUTES));
    CliProcess.Result run = new CliProcess.Result(p.exitValue(), Files.readString(log));
    assertEquals(1, run.code(), run.output());
    assertThat(run.output(), not(containsString("\tat ")));
    assertThat(run.output(), not(containsString("Exception in thread")));
    List<String> said = run.output().lines().filter(l -> l.startsWith("loadprof:")).toList();
    assertEquals(1, said.size(), run.output());
    assertThat(said.get(0), containsString("ran out of memory (Java heap space"));
  }

  @Test
  void aRecordingWithoutCallChainsIsSaidOnce() {
    Cli without = analyze(withoutCallChains, "nog");
    assertEquals(0, without.exit(), without.stderr());
    String warning = "no sample has a call chain (perf record without -g)";
    assertEquals(1, without.stderr().split(java.util.regex.Pattern.quote(warning), -1).length
        - 1, without.stderr());
    Cli with = analyze(withCallChains, "g");
    assertEquals(0, with.exit(), with.stderr());
    assertThat(with.stderr(), not(containsString(warning)));
  }
}
