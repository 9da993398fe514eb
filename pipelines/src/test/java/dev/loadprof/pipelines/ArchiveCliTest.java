package dev.loadprof.pipelines;

import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.cli.LoadprofCli;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * loadprof archive + analyze ARCHIVE, end to end through the CLI: the outputs of analyzing an
 * archive are byte for byte those of analyzing the traces; archiving twice changes nothing;
 * damaged archive files are exit 2 with a message that names the file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArchiveCliTest {
  static final List<String> OUTPUTS = List.of("profile.pb.gz", "histogram.txt",
      "functions.txt", "flame.folded", "summary.json", "summary.txt", "report.html");

  @TempDir
  static Path tmp;

  String phases;
  String mixed;
  Path archive;
  Path direct;

  record Run(int code, String out, String err) {}

  static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoadprofCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  @BeforeAll
  void archiveAndAnalyzeDirectly() throws IOException {
    phases = E2e.trace("phases").toString();
    mixed = E2e.trace("mixed").toString();
    archive = tmp.resolve("archive");
    direct = tmp.resolve("direct");
    long t0 = System.nanoTime();
    Run archived = cli("archive", "--out", archive.toString(), phases, mixed);
    long t1 = System.nanoTime();
    assertEquals(0, archived.code(), archived.err());
    Run analyzed = cli("analyze", "--out", direct.toString(), phases, mixed);
    long t2 = System.nanoTime();
    assertEquals(0, analyzed.code(), analyzed.err());
    long gz = Files.size(Path.of(phases)) + Files.size(Path.of(mixed));
    long avro = files(archive).values().stream().mapToLong(Long::longValue).sum();
    System.out.printf("ARCHIVE FIGURES: gzip text %d B, archive %d B (%.2fx) in %d files;"
            + " archive %d ms, analyze traces %d ms%n", gz, avro, avro / (double) gz,
        files(archive).size(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
  }

  @Test
  void analyzingTheArchiveGivesTheSameBytes() throws IOException {
    Path fromArchive = tmp.resolve("from-archive");
    long t0 = System.nanoTime();
    Run run = cli("analyze", "--out", fromArchive.toString(), archive.toString());
    System.out.printf("ARCHIVE FIGURES: analyze archive %d ms%n",
        (System.nanoTime() - t0) / 1_000_000);
    assertEquals(0, run.code(), run.err());
    assertSameOutputs(direct, fromArchive);
  }

  @Test
  void archiveAndTracesMix() throws IOException {
    Path phasesOnly = tmp.resolve("phases-only");
    assertEquals(0, cli("archive", "--out", phasesOnly.toString(), phases).code());
    Path out = tmp.resolve("mixed-inputs");
    Run run = cli("analyze", "--out", out.toString(), phasesOnly.toString(), mixed);
    assertEquals(0, run.code(), run.err());
    assertSameOutputs(direct, out);
    // The same run from an archive and from its trace would count twice.
    Run twice = cli("analyze", "--out", tmp.resolve("x").toString(), phasesOnly.toString(),
        phases);
    assertEquals(2, twice.code());
    assertTrue(twice.err().contains("run id of an archived run"), twice.err());
  }

  @Test
  void archivingTheSameTraceTwiceChangesNothing() throws IOException {
    Path again = copy(archive, "again");
    Map<String, Long> before = files(again);
    Run run = cli("archive", "--out", again.toString(), phases, mixed);
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("already"), run.out());
    assertEquals(before, files(again));
    Path out = tmp.resolve("again-out");
    assertEquals(0, cli("analyze", "--out", out.toString(), again.toString()).code());
    assertSameOutputs(direct, out);
  }

  @Test
  void aDifferentTraceWithAnArchivedRunIdIsRefused() throws IOException {
    Path other = tmp.resolve("other");
    Files.createDirectories(other);
    Path impostor = other.resolve("phases.txt.gz");
    Files.copy(E2e.trace("phases_plain"), impostor);
    Path target = copy(archive, "impostor");
    Map<String, Long> before = files(target);
    Run run = cli("archive", "--out", target.toString(), impostor.toString());
    assertEquals(2, run.code());
    assertTrue(run.err().contains("different trace with the run id 'phases'"), run.err());
    assertEquals(before, files(target));
  }

  @Test
  void anotherEventOrWindowThanArchivedIsRefused() {
    Run event = cli("analyze", "--out", tmp.resolve("e-out").toString(), "--event", "cycles",
        archive.toString());
    assertEquals(2, event.code());
    assertTrue(event.err().contains("archived with the sampling event cpu-clock"), event.err());
    Run window = cli("analyze", "--out", tmp.resolve("w-out").toString(), "--window", "250ms",
        archive.toString());
    assertEquals(2, window.code());
    assertTrue(window.err().contains("archived with --window 1000ms"), window.err());
  }

  @Test
  void aFailedArchiveJobLeavesNothingVisible() throws IOException {
    // The job fails while staging its block files: .staging is a regular file, so no block
    // file can be created under it (root ignores permissions, a file as parent it cannot).
    Path target = tmp.resolve("failed");
    Files.createDirectories(target);
    ArchiveLayout.createMarker(target.toString(),
        org.apache.beam.sdk.options.PipelineOptionsFactory.create());
    Files.writeString(target.resolve(ArchiveLayout.STAGING_DIR),
        "not a directory");
    Run run = cli("archive", "--out", target.toString(), phases, mixed);
    assertEquals(1, run.code(), run.err());
    // Neither run was committed: no manifests, no block files outside the staging area.
    assertTrue(files(target).keySet().stream()
        .allMatch(f -> f.equals("loadprof-archive.json") || f.startsWith(".staging")),
        files(target).toString());
    Run analyze = cli("analyze", "--out", tmp.resolve("f-out").toString(), target.toString());
    assertEquals(2, analyze.code());
    assertTrue(analyze.err().contains("archive without runs"), analyze.err());
  }

  @Test
  void aTruncatedBlockFileIsNamed() throws IOException {
    Path damaged = copy(archive, "truncated");
    Path file = firstBlockFile(damaged);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Run run = cli("analyze", "--out", tmp.resolve("t-out").toString(), damaged.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(file.toString()), run.err());
    assertTrue(run.err().contains("corrupt or truncated"), run.err());
    assertEquals(1, run.err().strip().lines().count(), run.err());
  }

  @Test
  void corruptBytesInTheMiddleAreNamed() throws IOException {
    Path damaged = copy(archive, "corrupt");
    Path file = firstBlockFile(damaged);
    damageTheBlocks(file);
    Run run = cli("analyze", "--out", tmp.resolve("c-out").toString(), damaged.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(file.toString()), run.err());
    assertTrue(run.err().contains("corrupt or truncated"), run.err());
    // The job failed while reading: no output at all, not even a temporary directory.
    Path out = tmp.resolve("c-out");
    assertTrue(Files.notExists(out) || files(out).isEmpty(), () -> "left in " + out);
  }

  /**
   * Flips 64 bytes in the middle of a block file's blocks, keeping its size (only reading can
   * tell). Not the middle of the file: its header holds the schema (~8 KB of JSON), and in a
   * small file that middle fell in a doc string, which left the blocks intact and analyze rightly
   * exiting 0 (CI rehearsals failed that way, whichever window landed in the first file).
   */
  static void damageTheBlocks(Path file) throws IOException {
    long headerEnd;
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
      headerEnd = reader.previousSync();
    }
    byte[] bytes = Files.readAllBytes(file);
    int middle = (int) ((headerEnd + bytes.length) / 2);
    for (int i = middle; i < middle + 64; i++) {
      bytes[i] ^= (byte) 0x5A;
    }
    Files.write(file, bytes);
  }

  @Test
  void aTruncatedManifestIsNamed() throws IOException {
    Path damaged = copy(archive, "manifest");
    Path manifest = damaged.resolve("runs").resolve("mixed.avro");
    byte[] bytes = Files.readAllBytes(manifest);
    Files.write(manifest, java.util.Arrays.copyOf(bytes, bytes.length - 40));
    Run run = cli("analyze", "--out", tmp.resolve("m-out").toString(), damaged.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(manifest.toString()), run.err());
  }

  /**
   * A block file of another run copied over one of this run's, with the manifest's size edited
   * to match: the blocks say whose they are, and the check before the job names the file.
   */
  @Test
  void aBlockFileCopiedInFromAnotherRunIsNamed() throws IOException {
    Path damaged = copy(archive, "copied-in");
    Path target = firstBlockFile(damaged);
    Path other;
    try (Stream<Path> walk = Files.walk(damaged.resolve("blocks").resolve("mixed"))) {
      other = walk.filter(p -> p.toString().endsWith(".avro")).sorted().findFirst()
          .orElseThrow();
    }
    Files.copy(other, target, StandardCopyOption.REPLACE_EXISTING);
    editManifest(damaged, "phases", m -> m.getBlockFiles().forEach(f -> {
      if (target.endsWith(f.getPath())) {
        f.setSizeBytes(sizeOf(target));
      }
    }));
    Run run = cli("analyze", "--out", tmp.resolve("copied-out").toString(), damaged.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(target.toString()), run.err());
    assertTrue(run.err().contains("holds blocks of run 'mixed'"), run.err());
    assertEquals(1, run.err().strip().lines().count(), run.err());
  }

  /** A manifest whose window length is not its blocks' is refused, naming a block file. */
  @Test
  void aManifestThatDisagreesWithItsBlocksIsNamed() throws IOException {
    Path damaged = copy(archive, "other-window");
    editManifest(damaged, "phases", m -> m.setWindowNs(m.getWindowNs() * 2));
    Run run = cli("analyze", "--out", tmp.resolve("window-out").toString(),
        damaged.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(damaged.resolve("blocks").resolve("phases").toString()),
        run.err());
    assertTrue(run.err().contains("as its manifest says"), run.err());
  }

  /**
   * A manifest whose CPU count is not the number of CPUs its blocks are of: only the whole job
   * sees all the blocks, and it exits 2 naming the manifest.
   */
  @Test
  void aManifestWithAnotherCpuCountIsNamed() throws IOException {
    Path damaged = copy(archive, "cpu-count");
    editManifest(damaged, "phases", m -> m.setCpuCount(m.getCpuCount() + 6));
    Run run = cli("analyze", "--out", tmp.resolve("cpus-out").toString(), damaged.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains(damaged.resolve("runs").resolve("phases.avro").toString()),
        run.err());
    assertTrue(run.err().contains("says the run has 8 CPUs, but its blocks are of 2 CPUs"),
        run.err());
  }

  /** -C selects samples by CPU in archived runs as in their traces (their blocks are per CPU). */
  @Test
  void theCpuFilterOnAnArchiveEqualsItOnTheTraces() throws IOException {
    Path fromTraces = tmp.resolve("cpu1-traces");
    Path fromArchive = tmp.resolve("cpu1-archive");
    assertEquals(0, cli("analyze", "--out", fromTraces.toString(), "-C", "1", phases, mixed)
        .code());
    Run run = cli("analyze", "--out", fromArchive.toString(), "-C", "1", archive.toString());
    assertEquals(0, run.code(), run.err());
    for (String name : List.of("functions.txt", "flame.folded", "profile.pb.gz")) {
      assertArrayEquals(Files.readAllBytes(fromTraces.resolve(name)),
          Files.readAllBytes(fromArchive.resolve(name)), name);
    }
  }

  /** An archive of a format this loadprof does not know is neither read nor added to. */
  @Test
  void anArchiveOfAnUnknownFormatIsRefused() throws IOException {
    Path future = copy(archive, "format99");
    Path marker = future.resolve("loadprof-archive.json");
    Files.writeString(marker, "{\"format\": \"loadprof-archive\", \"version\": 99}\n");
    Run read = cli("analyze", "--out", tmp.resolve("format99-out").toString(),
        future.toString());
    assertEquals(2, read.code(), read.err());
    assertTrue(read.err().contains(marker.toString()), read.err());
    assertTrue(read.err().contains("format version 99 is not supported"), read.err());
    Path trace = Files.copy(Path.of(phases), tmp.resolve("format99-new.txt.gz"));
    Run add = cli("archive", "--out", future.toString(), trace.toString());
    assertEquals(2, add.code(), add.err());
    assertTrue(add.err().contains("format version 99 is not supported"), add.err());
  }

  static void editManifest(Path archive, String runId,
      java.util.function.Consumer<dev.loadprof.schemas.RunManifestRecord> edit)
      throws IOException {
    Path file = archive.resolve("runs").resolve(runId + ".avro");
    org.apache.beam.sdk.io.fs.ResourceId id =
        org.apache.beam.sdk.io.FileSystems.matchNewResource(file.toString(), false);
    dev.loadprof.schemas.RunManifestRecord m = dev.loadprof.archive.beam.ArchiveFiles.readManifest(id);
    edit.accept(m);
    try (java.io.OutputStream out = Files.newOutputStream(file)) {
      dev.loadprof.archive.beam.ArchiveFiles.writeManifest(m, out);
    }
  }

  static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- helpers

  @Test
  void anArchiveOfFormat1StillReadsAndSaysHowToGetPartitions() throws IOException {
    Path old = copy(archive, "format1");
    Files.writeString(old.resolve("loadprof-archive.json"),
        "{\"format\": \"loadprof-archive\", \"version\": 1}\n");
    Run whole = cli("analyze", "--out", tmp.resolve("format1-out").toString(), old.toString());
    assertEquals(0, whole.code(), whole.err());
    assertSameOutputs(direct, tmp.resolve("format1-out"));
    Run selected = cli("analyze", "--out", tmp.resolve("format1-sel").toString(), "--nights",
        "2026-11-20", old.toString());
    assertEquals(2, selected.code());
    assertTrue(selected.err().contains("format 1, which has no night/host partitions; analyze it"
        + " whole"), selected.err());
  }

  static void assertSameOutputs(Path expected, Path actual) throws IOException {
    for (String name : OUTPUTS) {
      assertArrayEquals(Files.readAllBytes(expected.resolve(name)),
          Files.readAllBytes(actual.resolve(name)), name);
    }
  }

  /** Relative path -> size of every file of a directory tree. */
  static Map<String, Long> files(Path dir) throws IOException {
    Map<String, Long> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile).forEach(p -> {
        try {
          files.put(dir.relativize(p).toString(), Files.size(p));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    return files;
  }

  Path copy(Path from, String name) throws IOException {
    Path to = tmp.resolve(name);
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  static Path firstBlockFile(Path archive) throws IOException {
    try (Stream<Path> walk = Files.walk(archive.resolve("blocks").resolve("phases"))) {
      return walk.filter(p -> p.toString().endsWith(".avro")).sorted().findFirst()
          .orElseThrow();
    }
  }
}
