package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nightly over an archive stores each run's figures beside it the first time it computes them
 * and reads them back after: a cold nightly (nothing stored), a warm one (all stored) and one
 * night added to a warm archive write the same history.csv, nightly.json (change points and the
 * latest night's comparison) and summary.txt as nightly over the traces, and the warm ones read
 * no block file of the nights already computed (they are deleted before).
 */
class IncrementalNightlyTest {
  static final List<String> OUTPUTS = List.of("history.csv", "nightly.json", "summary.txt",
      "nightly.html");

  @TempDir Path dir;

  private Path night(Path traces, String fixture, int day) throws IOException {
    return Files.copy(Path.of(CompareCliTest.fixture(fixture)),
        traces.resolve("mixed-" + NightlyCliTest.FIRST.plusDays(day) + ".txt.gz"));
  }

  private Cli nightly(String out, String... inputs) {
    String[] args = Stream.concat(Stream.of("nightly", "--out", dir.resolve(out).toString()),
        Stream.of(inputs)).toArray(String[]::new);
    return E2e.cli(args);
  }

  private static void assertSameOutputs(Cli expected, Cli actual) throws IOException {
    assertEquals(expected.exit(), actual.exit(), actual.stdout() + actual.stderr());
    for (String name : OUTPUTS) {
      assertArrayEquals(Files.readAllBytes(expected.out().resolve(name)),
          Files.readAllBytes(actual.out().resolve(name)), name);
    }
  }

  @Test
  void coldWarmAndANewNightWriteTodaysOutputsAndWarmReadsNoOldBlocks() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    List<String> fixtures = List.of("base-1", "base-2", "base-3", "base-4", "base-5", "cpu-1");
    for (int i = 0; i < fixtures.size(); i++) {
      night(traces, fixtures.get(i), i);
    }
    String glob = traces.resolve("*.txt.gz").toString();
    Cli fromTraces = nightly("traces-out", glob);
    assertEquals(3, fromTraces.exit(), fromTraces.stdout() + fromTraces.stderr());
    Path archive = dir.resolve("archive");
    Cli archived = E2e.cli("archive", "--out", archive.toString(), glob);
    assertEquals(0, archived.exit(), archived.stderr());

    StringBuilder coldLog = new StringBuilder();
    Cli cold = logged(coldLog, () -> nightly("cold-out", archive.toString()));
    assertSameOutputs(fromTraces, cold);
    assertThat(cold.stderr(), containsString("figures of 0 archived runs read from the archive,"
        + " 6 computed from their blocks"));
    StringBuilder warmLog = new StringBuilder();
    Cli warm = logged(warmLog, () -> nightly("warm-out", archive.toString()));
    assertSameOutputs(fromTraces, warm);
    assertThat(warm.stderr(), containsString("figures of 6 archived runs read from the archive,"
        + " 0 computed from their blocks"));

    // The nights computed lose their blocks: a read of any of them would fail the job.
    deleteTree(archive.resolve("blocks"));
    Cli stillWarm = nightly("no-blocks-out", archive.toString());
    assertSameOutputs(fromTraces, stillWarm);

    Path seventh = night(traces, "cpu-2", fixtures.size());
    Cli added = E2e.cli("archive", "--out", archive.toString(), seventh.toString());
    assertEquals(0, added.exit(), added.stderr());
    Cli allTraces = nightly("traces7-out", glob);
    StringBuilder incrementalLog = new StringBuilder();
    Cli incremental = logged(incrementalLog, () -> nightly("incremental-out",
        archive.toString()));
    assertSameOutputs(allTraces, incremental);
    assertThat(incremental.stderr(), containsString("figures of 6 archived runs read from the"
        + " archive, 1 computed from their blocks"));
    // A run is said to be read from the archive when its blocks are, not for its figures.
    String read = " from the archive (";
    assertEquals(6, E2e.occurrences(coldLog.toString(), read), coldLog.toString());
    assertEquals(0, E2e.occurrences(warmLog.toString(), read), warmLog.toString());
    assertEquals(1, E2e.occurrences(incrementalLog.toString(), read),
        incrementalLog.toString());
    assertThat(incrementalLog.toString(), containsString(": run " + seventh.getFileName()
        .toString().replace(".txt.gz", "") + " from the archive ("));
  }

  /** The job's log lines (SLF4J's simple logger writes to System.err) appended to {@code log}. */
  private static Cli logged(StringBuilder log, java.util.function.Supplier<Cli> job) {
    java.io.PrintStream real = System.err;
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      return job.get();
    } finally {
      System.setErr(real);
      log.append(bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /** The same on Beam (the DirectRunner): it stores and reads the figures the local job does. */
  @Test
  void onBeamColdAndWarmWriteTodaysOutputsAndShareTheStoredFigures() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    List<String> fixtures = List.of("base-1", "base-2", "base-3", "cpu-1");
    for (int i = 0; i < fixtures.size(); i++) {
      night(traces, fixtures.get(i), i);
    }
    String glob = traces.resolve("*.txt.gz").toString();
    Cli fromTraces = nightly("traces-out", glob);
    Path archive = dir.resolve("archive");
    assertEquals(0, E2e.cli("archive", "--out", archive.toString(), glob).exit());
    Cli cold = nightly("beam-cold-out", "--runner", "direct", archive.toString());
    assertSameOutputs(fromTraces, cold);
    assertThat(cold.stderr(), containsString("figures of 0 archived runs read from the"
        + " archive, 4 computed from their blocks"));
    Cli warm = nightly("beam-warm-out", "--runner", "direct", archive.toString());
    assertSameOutputs(fromTraces, warm);
    assertThat(warm.stderr(), containsString("figures of 4 archived runs read from the"
        + " archive, 0 computed from their blocks"));
    deleteTree(archive.resolve("blocks"));
    Cli beamNoBlocks = nightly("beam-no-blocks-out", "--runner", "direct", archive.toString());
    assertSameOutputs(fromTraces, beamNoBlocks);
    Cli local = nightly("local-out", archive.toString());
    assertSameOutputs(fromTraces, local);
    assertThat(local.stderr(), containsString("figures of 4 archived runs read from the"
        + " archive, 0 computed"));
  }

  @Test
  void filtersThatChangeTheFiguresComputeThemAndStoreNothing() throws IOException {
    Path archive = twoNightsArchived();
    Cli filtered = nightly("comm-out", "--comm", "^mixed$", archive.toString());
    assertEquals(0, filtered.exit(), filtered.stderr());
    assertFalse(filtered.stderr().contains("figures of"), filtered.stderr());
    assertFalse(Files.exists(archive.resolve("figures")));
  }

  @Test
  void damagedStoredFiguresAreSaidAndComputedAgain() throws IOException {
    Path archive = twoNightsArchived();
    Cli cold = nightly("cold-out", archive.toString());
    Path figures;
    try (Stream<Path> walk = Files.walk(archive.resolve("figures"))) {
      figures = walk.filter(Files::isRegularFile).sorted().findFirst().orElseThrow();
    }
    flipAByte(figures);
    // Each night's runs are also in a night figures file: damaged too, it is said and its night
    // is read run by run, as without it.
    List<Path> nightFiles = nightFigures(archive);
    assertEquals(2, nightFiles.size(), nightFiles.toString());
    for (Path f : nightFiles) {
      flipAByte(f);
    }
    // The log's lines too (on System.err): each damaged file is said once, not also logged.
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    PrintStream console = System.err;
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    Cli warm;
    try {
      warm = nightly("warm-out", archive.toString());
    } finally {
      System.setErr(console);
    }
    String said = warm.stderr() + logged.toString(StandardCharsets.UTF_8);
    for (Path f : nightFiles) {
      assertEquals(1, said.split(java.util.regex.Pattern.quote(f
          + ": a night's figures file cannot be read"), -1).length - 1, said);
    }
    assertSameOutputs(cold, warm);
    assertThat(warm.stderr(), containsString("figures of 1 archived runs read from the archive,"
        + " 1 computed from their blocks"));
    for (Path f : List.of(figures, nightFiles.get(0), nightFiles.get(1))) {
      assertTrue(warm.stderr().contains(f.toString()) || warm.stdout().contains(f.toString()),
          f + " not named in: " + warm.stdout() + warm.stderr());
    }
    assertThat(warm.stderr(), containsString("a night's figures file cannot be read (checksum"
        + " mismatch); its night is read run by run. Delete it to have it written again"));
  }

  private static void flipAByte(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 3] ^= 0x01;
    Files.write(file, bytes);
  }

  private static List<Path> nightFigures(Path archive) throws IOException {
    try (Stream<Path> walk = Files.walk(archive.resolve("night-figures"))) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /**
   * A warm nightly reads each past night from its night figures file: with every run's own
   * figures file deleted, its blocks deleted, its manifest and its night index overwritten, it
   * writes the same outputs.
   */
  @Test
  void aWarmNightlyReadsEachNightFromOneFile() throws IOException {
    Path archive = twoNightsArchived();
    Cli cold = nightly("cold-out", archive.toString());
    assertEquals(2, nightFigures(archive).size(), "a file a night");
    deleteTree(archive.resolve("figures"));
    deleteTree(archive.resolve("blocks"));
    try (Stream<Path> walk = Files.list(archive.resolve("runs"))) {
      for (Path manifest : walk.toList()) {
        Files.writeString(manifest, "not a manifest");
      }
    }
    // The night indexes too, at their sizes (a night's file holds them as listed).
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      for (Path index : walk.filter(p -> p.getFileName().toString().startsWith("@")).toList()) {
        Files.write(index, new byte[(int) Files.size(index)]);
      }
    }
    Cli warm = nightly("warm-out", archive.toString());
    assertSameOutputs(cold, warm);
    assertThat(warm.stderr(), containsString("figures of 2 archived runs read from the archive,"
        + " 0 computed from their blocks (0 stored for the next nights)"));
  }

  /**
   * Figures are stored under the kind of this loadprof (nightly-4: a kept part as KeptCodec
   * writes it); those of an older kind (nightly-3, main before it, here the same bytes under
   * its name) are not read but computed again and stored under the new.
   */
  @Test
  void figuresOfAnOlderKindAreNotReadButComputedAgain() throws IOException {
    Path archive = twoNightsArchived();
    Cli cold = nightly("cold-out", archive.toString());
    List<Path> stored = storedFigures(archive);
    assertEquals(2, stored.size(), stored.toString());
    List<Path> both = new java.util.ArrayList<>(stored);
    both.addAll(nightFigures(archive)); // named by kind too
    assertEquals(4, both.size(), both.toString());
    for (Path f : both) {
      String name = f.getFileName().toString();
      assertThat(name, containsString("-nightly-4-"));
      Files.move(f, f.resolveSibling(name.replaceFirst("-nightly-4-[0-9a-f]+\\.bin$",
          "-nightly-3-5017ca999fe50380.bin")));
    }
    Cli warm = nightly("warm-out", archive.toString());
    assertSameOutputs(cold, warm);
    assertThat(warm.stderr(), containsString("figures of 0 archived runs read from the archive,"
        + " 2 computed from their blocks (2 stored for the next nights)"));
    assertEquals(4, storedFigures(archive).size());
    assertEquals(4, nightFigures(archive).size());
  }

  private static List<Path> storedFigures(Path archive) throws IOException {
    try (Stream<Path> walk = Files.walk(archive.resolve("figures"))) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    }
  }

  private Path twoNightsArchived() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    night(traces, "base-1", 0);
    night(traces, "base-2", 1);
    Path archive = dir.resolve("archive");
    assertEquals(0, E2e.cli("archive", "--out", archive.toString(),
        traces.resolve("*.txt.gz").toString()).exit());
    return archive;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
