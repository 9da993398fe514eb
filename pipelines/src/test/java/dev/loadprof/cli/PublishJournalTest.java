package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outputs reach --out complete or not at all: a job killed (kill -9) between any two steps of
 * its publish leaves --out with exactly the old set or, once the next job has finished the
 * journal, exactly the new set; the user's own files stay. Fails on the publish that deleted
 * the stale outputs and then renamed file by file, marking nothing.
 */
class PublishJournalTest {
  /** The set an earlier analyze and compare left, with what the new job leaves out. */
  static final Map<String, String> OLD = Map.of("summary.json", "old summary",
      "report.html", "old report", "histogram.txt", "old histogram", "compare.json", "old cmp");
  static final Map<String, String> NEW = Map.of("summary.json", "new summary", "report.html",
      "new report", "functions.txt", "new functions", "profile.pb.gz", "new profile");
  /** The user's files in --out (a recording of loadprof record among them): never touched. */
  static final Map<String, String> USERS = Map.of("mixed.data", "a recording", "notes.txt",
      "mine", ".hidden", "mine too");
  /** Steps before the journal's rename, which decides the publish: old set when killed there. */
  static final int STEPS_BEFORE_DECISION = 3;

  @TempDir Path dir;

  @Test
  void aJobKilledBetweenAnyTwoStepsOfItsPublishLeavesTheOldOrTheNewSetNeverAMix()
      throws Exception {
    int step = 0;
    for (;; step++) {
      Path out = dir.resolve("out-" + step);
      write(out, OLD);
      write(out, USERS);
      ChildJvm.Result r = publishInAChild(out, List.of("-D" + PublishJournal.STEP_PROPERTY + "="
          + step + ":halt"), "step-" + step).finish();
      if (r.exit() == ExitCode.OK) {
        assertEquals(merge(NEW, USERS), files(out), "published whole: " + r.stderr());
        break;
      }
      assertEquals(137, r.exit(), "halted before step " + step + ": " + r.stderr());
      boolean journal = Files.exists(out.resolve(PublishJournal.FILE));
      if (!journal) { // unmarked, so what a reader sees must be one whole set
        Map<String, String> seen = visible(out);
        assertTrue(seen.equals(merge(OLD, USERS)) || seen.equals(merge(NEW, USERS)),
            "killed before step " + step + ", no journal, and a mix: " + seen);
      }
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      OutputClaim.take(out.toString(), new PrintStream(err, true, StandardCharsets.UTF_8))
          .close(); // the next job on --out
      String said = err.toString(StandardCharsets.UTF_8);
      Map<String, String> expected = step < STEPS_BEFORE_DECISION ? OLD : NEW;
      assertEquals(merge(expected, USERS), files(out), "killed before step " + step
          + " then recovered: " + said);
      assertEquals(journal, said.contains("was left half-published by pid " + r.pid() + " ("),
          said);
    }
    // 1 before the publish, 2 before the journal, 4 moves, 2 removes, staging, journal, end
    assertEquals(12, step, "the steps of the publish");
  }

  @Test
  void finishingAJournalAgainChangesNothing() throws Exception {
    Path out = dir.resolve("out");
    write(out, OLD);
    write(out, USERS);
    ChildJvm.Result r = publishInAChild(out, List.of("-D" + PublishJournal.STEP_PROPERTY
        + "=5:halt"), "mid").finish(); // after two moves
    assertEquals(137, r.exit(), r.stderr());
    Map<String, String> mixed = visible(out);
    assertFalse(mixed.equals(merge(OLD, USERS)) || mixed.equals(merge(NEW, USERS)));
    var resource = org.apache.beam.sdk.io.FileSystems.matchNewResource(out.toString(), true);
    Files.delete(out.resolve(OutputLock.FILE)); // the killed job's: not what is tested here
    String by = PublishJournal.recover(resource);
    assertTrue(by.startsWith("pid " + r.pid() + " ("), by);
    assertEquals(merge(NEW, USERS), files(out));
    assertEquals(null, PublishJournal.recover(resource), "nothing left to finish");
    assertEquals(merge(NEW, USERS), files(out));
  }

  @Test
  void aDamagedJournalIsNamedAndNothingIsTouched() throws Exception {
    Path out = dir.resolve("out");
    write(out, OLD);
    Files.writeString(out.resolve(PublishJournal.FILE), "loadprof publish journal 1\nby x\n"
        + "staging ../../etc\nremove summary.json\n");
    UsageException e = assertThrows(UsageException.class,
        () -> OutputClaim.take(out.toString(), System.err));
    assertTrue(e.getMessage().contains(PublishJournal.FILE + " is damaged"), e.getMessage());
    assertTrue(Files.exists(out.resolve("summary.json")));
    assertFalse(Files.exists(out.resolve(OutputLock.FILE)), "the refused job left no lock");
  }

  @Test
  void aPlanReadsBackAsWritten() throws IOException {
    PublishJournal.Plan plan = new PublishJournal.Plan("pid 1 (loadprof analyze x, started t)",
        OutputClaim.STAGING_PREFIX + "abc", List.of("summary.json", "report.html"),
        List.of("compare.json"));
    assertEquals(plan, PublishJournal.Plan.parse(plan.text()));
  }

  static ChildJvm publishInAChild(Path out, List<String> props, String name)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("publish", out.toString()));
    new TreeMap<>(NEW).forEach((k, v) -> args.add(k + "=" + v));
    return ChildJvm.start(out.resolveSibling("logs"), name, props, ClaimDriver.class,
        args.toArray(new String[0]));
  }

  static void write(Path out, Map<String, String> files) throws IOException {
    Files.createDirectories(out);
    for (Map.Entry<String, String> f : files.entrySet()) {
      Files.writeString(out.resolve(f.getKey()), f.getValue());
    }
  }

  /** Every file and directory in --out (loadprof's dot files too), files with their text. */
  static Map<String, String> files(Path out) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> s = Files.list(out)) {
      for (Path p : s.toList()) {
        files.put(p.getFileName().toString(), Files.isDirectory(p) ? "(a directory)"
            : Files.readString(p));
      }
    }
    return files;
  }

  /** What a reader that skips loadprof's dot files sees. */
  static Map<String, String> visible(Path out) throws IOException {
    Map<String, String> seen = files(out);
    seen.keySet().removeIf(name -> name.startsWith(".loadprof"));
    return seen;
  }

  static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
    Map<String, String> m = new TreeMap<>(a);
    m.putAll(b);
    return m;
  }
}
