package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --out: a place loadprof cannot write is exit 2 before the job, in one line
 * naming it; afterwards the directory holds exactly this job's outputs (an earlier job's
 * runs.txt and groups.txt go, the user's own files stay); a killed job's temporary directory is
 * removed by the next run. The tests run as root, where permissions do not stop a write: the
 * unwritable places are a file, a path under a file, and /proc.
 */
class OutputDirTest {
  @TempDir Path dir;

  private static String phases() {
    return E2e.trace("phases").toString();
  }

  private static void assertRefusedBeforeTheJob(Cli cli, String out, String why) {
    assertEquals(2, cli.exit(), cli.stderr());
    assertTrue(cli.stderr().contains("--out " + out), cli.stderr());
    assertTrue(cli.stderr().contains(why), cli.stderr());
    assertEquals(1, cli.stderr().strip().lines().count(), cli.stderr());
    assertFalse(cli.stdout().contains("Outputs in"), cli.stdout()); // the job never ran
  }

  @Test
  void anExistingFileIsRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "mine");
    assertRefusedBeforeTheJob(E2e.analyze(file, phases()), file.toString(), "existing file");
    assertEquals("mine", Files.readString(file));
  }

  @Test
  void aPathUnderAFileIsRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "mine");
    Path out = file.resolve("out");
    assertRefusedBeforeTheJob(E2e.analyze(out, phases()), out.toString(),
        file + " is a file");
  }

  @Test
  void aPathUnderProcIsRefused() {
    for (String out : new String[] {"/proc/loadprof-out", "/proc/self"}) {
      assertRefusedBeforeTheJob(E2e.analyze(Path.of(out), phases()), out,
          "kernel file system");
    }
  }

  @Test
  void anArchiveIntoAFileIsRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("an-archive"), "mine");
    Cli cli = E2e.cli("archive", "--out", file.toString(), phases());
    assertRefusedBeforeTheJob(cli, file.toString(), "existing file");
  }

  @Test
  void compareAndNightlyCheckTheirOutBeforeTheJob() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "mine");
    String base = CompareCliTest.fixture("base-1");
    String cand = CompareCliTest.fixture("cpu-1");
    assertRefusedBeforeTheJob(E2e.cli("compare", "--out", file.toString(), "--baseline", base,
        "--candidate", cand), file.toString(), "existing file");
    Path under = file.resolve("out");
    assertRefusedBeforeTheJob(E2e.cli("nightly", "--out", under.toString(), base, cand),
        under.toString(), file + " is a file");
    assertRefusedBeforeTheJob(E2e.cli("nightly", "--out", "/proc/loadprof-out", base, cand),
        "/proc/loadprof-out", "kernel file system");
    assertEquals("mine", Files.readString(file));
  }

  @Test
  void aMissingDirectoryIsCreatedByTheJobNotByTheCheck() throws IOException {
    Path out = dir.resolve("new/deeper");
    // Refused after the --out check (a directory is no trace): the check's probe left nothing.
    Path notATrace = Files.createDirectories(dir.resolve("not-a-trace"));
    Cli refused = E2e.analyze(out, notATrace.toString());
    assertEquals(2, refused.exit(), refused.stderr());
    assertTrue(refused.stderr().contains("is a directory"), refused.stderr());
    assertFalse(Files.exists(dir.resolve("new")), "the probe leaves no directory behind");
    E2e.analyze(out, phases()).assertOk();
    assertTrue(Files.exists(out.resolve("summary.json")));
  }

  @Test
  void aRerunLeavesExactlyItsOwnOutputs() throws IOException {
    Path out = dir.resolve("out");
    Cli two = E2e.analyze(out, phases(), E2e.trace("mixed").toString()).assertOk();
    assertTrue(files(out).containsAll(Set.of("runs.txt", "groups.txt")), files(out).toString());
    assertTrue(two.stdout().contains("runs.txt"), two.stdout());
    Files.writeString(out.resolve("notes.txt"), "the user's own file");
    Files.writeString(out.resolve("functions.txt.orig"), "also the user's");

    Cli one = E2e.analyze(out, phases()).assertOk();

    // A one-run job's outputs (the one list) plus the user's own files.
    Set<String> expected = new TreeSet<>(dev.loadprof.report.Reports.fileNames(false));
    expected.addAll(Set.of("notes.txt", "functions.txt.orig"));
    assertTrue(expected.contains("report.html") && !expected.contains("runs.txt"), "" + expected);
    assertEquals(expected, files(out));
    assertFalse(one.stdout().contains("runs.txt"), one.stdout());
    assertFalse(one.stdout().contains("groups.txt"), one.stdout());
  }

  @Test
  void aKilledJobsDebrisIsRemovedByTheNextRun() throws IOException {
    Path out = dir.resolve("out");
    Path debris = out.resolve(".loadprof-tmp-0b5e55ed/nested");
    Files.createDirectories(debris);
    Files.writeString(debris.getParent().resolve("functions.txt"), "half written");
    Files.writeString(debris.resolve("x"), "x");
    Files.writeString(out.resolve(".loadprof-tmpfile-not-ours"), "kept: not our prefix");

    E2e.analyze(out, phases()).assertOk();

    assertFalse(Files.exists(debris.getParent()), files(out).toString());
    try (Stream<Path> s = Files.list(out)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".loadprof-tmp-")),
          files(out).toString());
    }
    assertTrue(Files.exists(out.resolve(".loadprof-tmpfile-not-ours")));
  }

  private static Set<String> files(Path out) throws IOException {
    try (Stream<Path> s = Files.list(out)) {
      Set<String> names = new TreeSet<>();
      s.forEach(p -> names.add(p.getFileName().toString()));
      return names;
    }
  }
}
