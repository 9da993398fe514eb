package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.ArchiveCliTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --nights over night indexes does not list runs/: a run's manifest is named by its run id, so
 * one that is missing is found where it is read (the job's workers, or the client for an entry
 * no night index covers) and is bad input naming the run, its manifest and the command that
 * repairs it, on the local path and on Beam alike, never a silent drop. A run with a manifest
 * but no index entry nor night index line (a job killed between the two) is not seen by
 * --nights; the whole archive's analyze finds it and says so, and archiving it again repairs it.
 */
class ArchiveNightSelectionTest {
  private static final String NIGHT = "2026-11-20";

  @TempDir Path tmp;

  private static Run archive(Path archive, String... traces) {
    String[] args = Stream.concat(Stream.of("archive", "--out", archive.toString(), "--night",
        NIGHT), Stream.of(traces).map(t -> E2e.trace(t).toString())).toArray(String[]::new);
    Run run = ArchiveCliTest.cli(args);
    assertEquals(0, run.code(), run.out() + run.err());
    return run;
  }

  private Run analyze(Path archive, String out, String... more) {
    String[] args = Stream.concat(Stream.of("analyze", "--out", tmp.resolve(out).toString()),
        Stream.concat(Stream.of(more), Stream.of(archive.toString()))).toArray(String[]::new);
    return ArchiveCliTest.cli(args);
  }

  private static Set<Path> nightIndexes(Path archive) throws IOException {
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      return walk.filter(p -> p.getFileName().toString().startsWith("@"))
          .collect(Collectors.toSet());
    }
  }

  private static Path entryOf(Path archive, String runId) throws IOException {
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      return walk.filter(p -> p.getFileName().toString().startsWith(runId + "@")).findFirst()
          .orElseThrow();
    }
  }

  /** phases by one archive job, mixed by a second one whose night index is deleted. */
  private Path mixedInNoNightIndex(String name) throws IOException {
    Path archive = tmp.resolve(name);
    archive(archive, "phases");
    Set<Path> first = nightIndexes(archive);
    archive(archive, "mixed");
    Set<Path> second = nightIndexes(archive);
    second.removeAll(first);
    assertEquals(1, second.size(), second.toString());
    Files.delete(second.iterator().next());
    return archive;
  }

  private static void assertMissingManifestNamed(Run run, Path archive, String runId,
      String trace) {
    assertEquals(2, run.code(), run.out() + run.err());
    Path manifest = archive.resolve("runs").resolve(runId + ".avro");
    assertThat(run.err(), containsString(manifest + ": the run's manifest is missing (its"
        + " index entry " + archive.resolve("index")));
    assertThat(run.err(), containsString("Run " + runId + " of " + archive
        + " is damaged; repair it with: loadprof archive --out " + archive + " "
        + E2e.trace(trace)));
    assertEquals(1, run.err().strip().lines().filter(l -> l.contains("manifest is missing"))
        .count(), run.err());
    assertTrue(!run.err().contains("Exception") && !run.err().contains("\tat "), run.err());
  }

  /**
   * A block file of a run the client left to the job is checked as it is read, not before as
   * well: a truncated one fails the job naming it, in this JVM and on Beam alike.
   */
  @Test
  void aTruncatedBlockFileOfANightIndexedRunFailsTheJobNamingIt() throws IOException {
    Path archive = tmp.resolve("truncated");
    archive(archive, "phases");
    Path blockFile;
    try (Stream<Path> walk = Files.walk(archive.resolve("blocks"))) {
      blockFile = walk.filter(p -> p.toString().endsWith(".avro")).sorted().findFirst()
          .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(blockFile);
    Files.write(blockFile, java.util.Arrays.copyOf(bytes, bytes.length - 100));
    for (String runner : new String[] {null, "direct"}) {
      Run run = runner == null ? analyze(archive, "t-local", "--nights", NIGHT)
          : analyze(archive, "t-beam", "--nights", NIGHT, "--runner", runner);
      assertEquals(2, run.code(), run.out() + run.err());
      assertThat(run.err(), containsString(blockFile + ": corrupt or truncated Avro file ("
          + (bytes.length - 100) + " bytes, the manifest says " + bytes.length + ")"));
      assertTrue(!run.err().contains("\tat "), run.err());
    }
    for (String out : new String[] {"t-local", "t-beam"}) { // no report of a damaged run
      assertTrue(!Files.exists(tmp.resolve(out).resolve("summary.json")), out);
    }
  }

  @Test
  void aMissingManifestOfANightIndexedRunFailsTheJobNamingTheRun() throws IOException {
    Path archive = tmp.resolve("gone");
    archive(archive, "phases", "mixed");
    Files.delete(archive.resolve("runs").resolve("phases.avro"));

    Run local = analyze(archive, "local", "--nights", NIGHT);
    assertMissingManifestNamed(local, archive, "phases", "phases");
    Run beam = analyze(archive, "beam", "--nights", NIGHT, "--runner", "direct");
    assertMissingManifestNamed(beam, archive, "phases", "phases");

    archive(archive, "phases", "mixed"); // the repair command
    Run repaired = analyze(archive, "repaired", "--nights", NIGHT);
    assertEquals(0, repaired.code(), repaired.err());
    assertEquals(List.of("mixed", "phases"), StoresIT.runsOf(tmp.resolve("repaired")));
  }

  @Test
  void anEntryNoNightIndexCoversIsCheckedFromTheClient() throws IOException {
    Path archive = mixedInNoNightIndex("uncovered");
    Run both = analyze(archive, "both", "--nights", NIGHT);
    assertEquals(0, both.code(), both.err());
    assertEquals(List.of("mixed", "phases"), StoresIT.runsOf(tmp.resolve("both")));
    assertThat(both.err(), containsString("1 of 2 selected runs of " + archive
        + " are in no night index"));

    Files.delete(archive.resolve("runs").resolve("mixed.avro"));
    assertMissingManifestNamed(analyze(archive, "gone", "--nights", NIGHT), archive, "mixed",
        "mixed");
  }

  @Test
  void aRunWithoutIndexEntryNorNightIndexIsFoundByTheWholeArchiveAndRepaired()
      throws IOException {
    Path archive = mixedInNoNightIndex("killed");
    Files.delete(entryOf(archive, "mixed")); // as a job killed between manifest and entry

    Run selected = analyze(archive, "selected", "--nights", NIGHT);
    assertEquals(0, selected.code(), selected.err());
    assertEquals(List.of("phases"), StoresIT.runsOf(tmp.resolve("selected")));

    Run whole = analyze(archive, "whole");
    assertEquals(0, whole.code(), whole.err());
    assertEquals(List.of("mixed", "phases"), StoresIT.runsOf(tmp.resolve("whole")));
    assertThat(whole.err(), containsString("run mixed of " + archive + " (night " + NIGHT));
    assertThat(whole.err(), containsString("has no index entry"));

    Run again = archive(archive, "mixed");
    assertThat(again.out(), containsString("Re-creating run mixed"));
    Run repaired = analyze(archive, "repaired", "--nights", NIGHT);
    assertEquals(0, repaired.code(), repaired.err());
    assertEquals(List.of("mixed", "phases"), StoresIT.runsOf(tmp.resolve("repaired")));
    assertTrue(!repaired.err().contains("no night index"), repaired.err());
  }
}
