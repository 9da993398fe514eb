package dev.loadprof.cli;

import static dev.loadprof.cli.PublishJournalTest.NEW;
import static dev.loadprof.cli.PublishJournalTest.OLD;
import static dev.loadprof.cli.PublishJournalTest.USERS;
import static dev.loadprof.cli.PublishJournalTest.files;
import static dev.loadprof.cli.PublishJournalTest.merge;
import static dev.loadprof.cli.PublishJournalTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (SIGINT) at the end of a job: either the publish completes and that is said, or --out
 * keeps what it held and the console says the outputs were not written; exit 130 either way,
 * and "Outputs in" only when they are there. Fails on the job that printed "Outputs in" before
 * publishing.
 */
class StoppedPublishTest {
  @TempDir Path dir;

  @Test
  void sigintRightBeforeThePublishKeepsTheOldSetAndSaysSo() throws Exception {
    Path out = dir.resolve("out");
    ChildJvm.Result r = interruptedAt(out, 0);
    assertEquals(ExitCode.STOPPED, r.exit(), r.stderr());
    assertFalse(r.stdout().contains("Outputs in"), r.stdout());
    assertTrue(r.stderr().contains("loadprof: stopped: the outputs were not written; " + out
        + " holds what it held before"), r.stderr());
    assertEquals(merge(OLD, USERS), files(out), "no lock file, no staging left either");
  }

  @Test
  void sigintDuringThePublishLetsItCompleteAndSaysSo() throws Exception {
    Path out = dir.resolve("out");
    ChildJvm.Result r = interruptedAt(out, 4); // after the journal and one move
    assertEquals(ExitCode.STOPPED, r.exit(), r.stderr());
    assertTrue(r.stdout().contains("Outputs in " + out + "/")
        ? r.stderr().contains("loadprof: stopped after the outputs were published in " + out)
        : r.stderr().contains("loadprof: stopped: the outputs were published in " + out + "/"),
        r.stdout() + r.stderr());
    assertEquals(merge(NEW, USERS), files(out), "no lock file, no staging left either");
  }

  /** A publish of NEW over OLD, sent SIGINT while paused before {@code step}, then let go. */
  private ChildJvm.Result interruptedAt(Path out, int step) throws Exception {
    write(out, OLD);
    write(out, USERS);
    Path paused = dir.resolve("paused");
    ChildJvm job = PublishJournalTest.publishInAChild(out, List.of("-D"
        + PublishJournal.STEP_PROPERTY + "=" + step + ":pause:" + paused), "sigint-" + step);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!Files.exists(paused) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(Files.exists(paused), "the job reached step " + step);
    job.interrupt();
    Thread.sleep(500); // the JVM runs its shutdown hooks, the claim's among them
    Files.delete(paused); // the job goes on from the step
    return job.finish();
  }
}
