package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's --out as a user meets it, in processes of their own: two jobs of different
 * commands on one --out, 20 rounds at several timings; a job killed (kill -9) in the middle of
 * its publish, then the next job; Ctrl-C right before the publish. The unit tests of the parts
 * are in dev.loadprof.cli (OutputLockTest, PublishJournalTest, StoppedPublishTest).
 */
class OutputClaimIT {
  /** Rounds of two real CLI jobs (OutputLockIT runs 20 of two claims at all timings). */
  static final int ROUNDS = 8;
  /** Test-only: stops the publish at a step (dev.loadprof.cli.PublishJournal.STEP_PROPERTY). */
  static final String STEP = "-Dloadprof.test.publishStep=";

  @TempDir Path dir;

  /**
   * analyze and nightly on one --out, taking turns as the first. Even rounds: the second starts
   * while the first holds --out (paused before its publish until the second has ended): it
   * fails at once, naming the holder's pid and command, prints no summary, and the first then
   * finishes. Odd rounds: both start together, at whatever timing the machine gives: one is
   * refused so, or they ran one after the other. After every round --out holds exactly one
   * job's outputs and no lock file.
   */
  @Test
  void twoCliJobsOnOneOutNeverBothRunAndTheRefusedOneNamesTheHolder() throws Exception {
    Path quiet = SharedOutTest.nights(dir, "quiet", NightlyCliTest.base());
    Path out = dir.resolve("out");
    String[] analyze = {"analyze", "--out", out.toString(), E2e.trace("phases").toString()};
    String[] nightly = {"nightly", "--out", out.toString(), "--comm", "^mixed$",
        quiet.resolve("*.txt.gz").toString()};
    assertEquals(0, E2e.cli(analyze).exit());
    Map<String, String> analyzeSet = SharedOutTest.files(out);
    assertEquals(0, E2e.cli(nightly).exit());
    Map<String, String> nightlySet = SharedOutTest.files(out);
    int refusedWhileHeld = 0;
    for (int round = 0; round < ROUNDS; round++) {
      boolean analyzeFirst = round % 4 < 2;
      String[] first = analyzeFirst ? analyze : nightly;
      String[] second = analyzeFirst ? nightly : analyze;
      Path paused = dir.resolve(round + ".paused");
      boolean held = round % 2 == 0;
      Process a = start(round + "-a", held ? List.of(STEP + "0:pause:" + paused) : List.of(),
          first);
      if (held) {
        awaitFile(paused);
      }
      Process b = start(round + "-b", List.of(), second);
      CliProcess.Result rb = CliProcess.finish(b, log(round + "-b"));
      if (held) {
        Files.delete(paused);
      }
      CliProcess.Result ra = CliProcess.finish(a, log(round + "-a"));
      Map<String, String> now = SharedOutTest.files(out);
      String where = "round " + round + ":\n" + ra.output() + "\n" + rb.output();
      Map<String, String> firstSet = analyzeFirst ? analyzeSet : nightlySet;
      Map<String, String> secondSet = analyzeFirst ? nightlySet : analyzeSet;
      if (held || ra.code() == 2 || rb.code() == 2) {
        boolean aLost = ra.code() == 2;
        assertTrue(aLost ^ rb.code() == 2, where);
        refusedWhileHeld += held ? 1 : 0;
        assertEquals(0, (aLost ? rb : ra).code(), where);
        String holder = "loadprof: --out " + out + " is in use by pid " + (aLost ? b : a).pid()
            + " (loadprof " + (aLost ? second : first)[0] + " --out " + out;
        assertTrue((aLost ? ra : rb).output().contains(holder), holder + "\n" + where);
        assertFalse((aLost ? ra : rb).output().contains("Outputs in"), where);
        assertEquals(aLost ? secondSet : firstSet, now, where);
      } else { // one after the other
        assertEquals(List.of(0, 0), List.of(ra.code(), rb.code()), where);
        assertTrue(now.equals(firstSet) || now.equals(secondSet), where + now.keySet());
      }
    }
    assertEquals(ROUNDS / 2, refusedWhileHeld);
  }

  /**
   * analyze killed in the middle of its publish (after 3 of its moves): --out is marked by the
   * journal, and the next job (nightly) finishes that publish first, says so, and then leaves
   * exactly its own outputs: none of analyze's or the earlier nightly's.
   */
  @Test
  void aJobKilledWhilePublishingIsFinishedByTheNextJob() throws Exception {
    Path quiet = SharedOutTest.nights(dir, "quiet", NightlyCliTest.base());
    Path out = dir.resolve("out");
    String[] nightly = {"nightly", "--out", out.toString(), "--comm", "^mixed$",
        quiet.resolve("*.txt.gz").toString()};
    assertEquals(0, E2e.cli(nightly).exit());
    Map<String, String> nightlySet = SharedOutTest.files(out);
    // A halted JVM removes none of its temp files: they go to the test's own dir.
    Path temp = Files.createDirectories(dir.resolve("killed-temp"));
    Process killed = start("killed", List.of(STEP + "6:halt", "-Djava.io.tmpdir=" + temp),
        "analyze", "--out", out.toString(), E2e.trace("phases").toString());
    CliProcess.Result k = CliProcess.finish(killed, log("killed"));
    assertEquals(137, k.code(), k.output());
    assertFalse(k.output().contains("Outputs in"), k.output());
    assertTrue(Files.exists(out.resolve(".loadprof-publish")), "marked as being published");
    Cli next = E2e.cli(nightly);
    assertEquals(0, next.exit(), next.stderr());
    assertTrue(next.stderr().contains("loadprof: " + out + " was left half-published by pid "
        + killed.pid() + " (loadprof analyze --out " + out), next.stderr());
    assertEquals(nightlySet, SharedOutTest.files(out));
  }

  /**
   * Ctrl-C after the job, right before its publish: exit 130, no "Outputs in", one line that
   * says the outputs were not written, and --out as it was. Fails on the job that printed its
   * summary and "Outputs in" before publishing.
   */
  @Test
  void ctrlCRightBeforeThePublishLeavesOutAsItWasAndSaysSo() throws Exception {
    Path out = dir.resolve("out");
    assertEquals(0, E2e.cli("analyze", "--out", out.toString(),
        CompareCliTest.fixture("base-1")).exit());
    Map<String, String> before = SharedOutTest.files(out);
    Path paused = dir.resolve("paused");
    List<String> command = new ArrayList<>(List.of("perl", "-e",
        "$SIG{INT} = 'DEFAULT'; exec @ARGV", // a background test JVM ignores SIGINT
        ProcessHandle.current().info().command().orElse("java"), "-Xmx512m",
        STEP + "0:pause:" + paused, "-cp", System.getProperty("java.class.path"),
        "dev.loadprof.cli.LoadprofCli", "analyze", "--out", out.toString(),
        E2e.trace("phases").toString()));
    Process job = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log("sigint").toFile()).start();
    awaitFile(paused);
    new ProcessBuilder("kill", "-INT", Long.toString(job.pid())).start().waitFor();
    Thread.sleep(500); // the JVM runs its shutdown hooks, the claim's among them
    Files.delete(paused); // lets the job go on from the step
    CliProcess.Result r = CliProcess.finish(job, log("sigint"));
    assertEquals(130, r.code(), r.output());
    assertFalse(r.output().contains("Outputs in"), r.output());
    assertTrue(r.output().contains("loadprof: stopped: the outputs were not written; " + out
        + " holds what it held before"), r.output());
    assertEquals(before, SharedOutTest.files(out));
  }

  private static void awaitFile(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(Files.exists(file), "the job reached the step that makes " + file);
  }

  private Process start(String name, List<String> props, String... args) throws IOException {
    return CliProcess.start(Map.of(), props, log(name), args);
  }

  private Path log(String name) {
    return dir.resolve(name + ".log");
  }
}
