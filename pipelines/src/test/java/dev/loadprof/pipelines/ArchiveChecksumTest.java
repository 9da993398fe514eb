package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.pipelines.ArchiveCliTest.Run;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every archive file is checked on read: a flipped byte in a manifest (a process renamed, as
 * bench became benci) or a damaged index entry is bad input (exit 2) naming the run and the
 * command that repairs it, and that command works; a run whose index entry was deleted is still
 * found by --nights, and said.
 */
class ArchiveChecksumTest {
  @TempDir Path tmp;

  private Path archived(String name) {
    Path archive = tmp.resolve(name);
    Run run = ArchiveCliTest.cli("archive", "--out", archive.toString(), "--night", "2026-11-20",
        E2e.trace("phases").toString(), E2e.trace("mixed").toString());
    assertEquals(0, run.code(), run.err());
    return archive;
  }

  private Run analyze(Path archive, String out, String... more) {
    String[] args = Stream.concat(Stream.of("analyze", "--out", tmp.resolve(out).toString()),
        Stream.concat(Stream.of(more), Stream.of(archive.toString()))).toArray(String[]::new);
    return ArchiveCliTest.cli(args);
  }

  private Run archiveAgain(Path archive) {
    return ArchiveCliTest.cli("archive", "--out", archive.toString(), "--night", "2026-11-20",
        E2e.trace("phases").toString(), E2e.trace("mixed").toString());
  }

  @Test
  void aProcessRenamedByOneFlippedByteIsCaughtAndRepaired() throws IOException {
    Path archive = archived("renamed");
    Path manifest = archive.resolve("runs").resolve("mixed.avro");
    RunManifestRecord m = ArchiveFiles.readManifest(
        FileSystems.matchNewResource(manifest.toString(), false));
    byte[] bytes = Files.readAllBytes(manifest);
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    // A process name that occurs once in the file: its last letter changed, as bench -> benci.
    String comm = m.getProcessNames().values().stream()
        .filter(c -> c.length() >= 4 && text.indexOf(c) >= 0 && text.indexOf(c) == text.lastIndexOf(c))
        .sorted().findFirst().orElseThrow();
    int at = text.indexOf(comm) + comm.length() - 1;
    bytes[at] ^= 0x01;
    Files.write(manifest, bytes);

    Run broken = analyze(archive, "broken");
    assertEquals(2, broken.code(), broken.out() + broken.err());
    assertThat(broken.err(), containsString("checksum mismatch"));
    assertThat(broken.err(), containsString("Run mixed of " + archive));
    assertThat(broken.err(), containsString("loadprof archive --out " + archive));

    Run again = archiveAgain(archive);
    assertEquals(0, again.code(), again.out() + again.err());
    assertThat(again.out(), containsString("Re-creating run mixed"));
    assertThat(again.out(), containsString("1 repaired"));
    Run repaired = analyze(archive, "repaired");
    assertEquals(0, repaired.code(), repaired.err());
  }

  @Test
  void aDeletedIndexEntryIsFoundSaidAndWrittenAgain() throws IOException {
    Path archive = archived("unindexed");
    Path entry;
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      entry = walk.filter(p -> p.getFileName().toString().startsWith("phases@")).findFirst()
          .orElseThrow();
    }
    Files.delete(entry);

    Run selected = analyze(archive, "selected", "--nights", "2026-11-20");
    assertEquals(0, selected.code(), selected.out() + selected.err());
    assertEquals(List.of("mixed", "phases"),
        StoresIT.runsOf(tmp.resolve("selected")).stream().sorted().toList());
    assertThat(selected.err(), containsString("run phases of " + archive
        + " (night 2026-11-20, host "));
    assertThat(selected.err(), containsString("has no index entry"));

    Run again = archiveAgain(archive);
    assertEquals(0, again.code(), again.out() + again.err());
    assertThat(again.out(), containsString("Re-creating run phases"));
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      assertEquals(1, walk.filter(p -> p.getFileName().toString().startsWith("phases@"))
          .count());
    }
    Run clean = analyze(archive, "clean", "--nights", "2026-11-20");
    assertEquals(0, clean.code(), clean.err());
    assertTrue(!clean.err().contains("has no index entry"), clean.err());
  }

  @Test
  void aDamagedIndexEntryOrAMissingManifestIsBadInputNamingTheRun() throws IOException {
    Path archive = archived("entry");
    Path entry;
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      entry = walk.filter(p -> p.getFileName().toString().startsWith("mixed@")).findFirst()
          .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(entry);
    bytes[bytes.length / 2] ^= 0x01;
    Files.write(entry, bytes);
    Run damaged = analyze(archive, "damaged", "--nights", "2026-11-20");
    assertEquals(2, damaged.code(), damaged.out() + damaged.err());
    assertThat(damaged.err(), containsString("Run mixed of " + archive + " is damaged"));

    Files.delete(entry);
    Files.delete(archive.resolve("runs").resolve("phases.avro"));
    Run missing = analyze(archive, "missing");
    assertEquals(2, missing.code(), missing.out() + missing.err());
    assertThat(missing.err(), containsString("the run's manifest is missing"));
    assertThat(missing.err(), containsString("loadprof archive --out " + archive + " "
        + E2e.trace("phases")));
  }

  /** An archive as loadprof wrote it before checksums: format 2, empty index entries. */
  @Test
  void anArchiveWithoutChecksumsStillReadsAndSaysSoOnce() throws IOException {
    Path archive = archived("old");
    try (Stream<Path> runs = Files.list(archive.resolve("runs"))) {
      for (Path manifest : runs.toList()) {
        RunManifestRecord m = ArchiveFiles.readManifest(
            FileSystems.matchNewResource(manifest.toString(), false));
        m.setFormatVersion(2);
        try (var writer = new org.apache.avro.file.DataFileWriter<>(
            new org.apache.avro.specific.SpecificDatumWriter<>(RunManifestRecord.class))) {
          writer.create(RunManifestRecord.getClassSchema(), manifest.toFile());
          writer.append(m);
        }
      }
    }
    try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
      for (Path entry : walk.filter(Files::isRegularFile).toList()) {
        Files.write(entry, new byte[0]);
      }
    }
    Files.writeString(archive.resolve("loadprof-archive.json"),
        "{\"format\": \"loadprof-archive\", \"version\": 2}\n");

    Run run = analyze(archive, "old-out", "--nights", "2026-11-20");
    assertEquals(0, run.code(), run.out() + run.err());
    assertEquals(List.of("mixed", "phases"), StoresIT.runsOf(tmp.resolve("old-out")));
    String said = "written before archives had checksums";
    assertEquals(1, run.err().split(said, -1).length - 1, run.err());
  }
}
