package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.ArchiveCliTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged archived run is repaired by what its error message says: running
 * {@code loadprof archive} again with the same trace, no extra flag. Afterwards analyze reads
 * the archive as it read the intact one.
 */
class ArchiveRepairTest {
  @TempDir Path tmp;

  private Path archived(String name) {
    Path archive = tmp.resolve(name);
    Run run = ArchiveCliTest.cli("archive", "--out", archive.toString(),
        E2e.trace("phases").toString(), E2e.trace("mixed").toString());
    assertEquals(0, run.code(), run.err());
    return archive;
  }

  /** Archives again, then checks that analyze gives what it gives on an intact archive. */
  private void assertRepairedByArchivingAgain(Path archive, String runId) throws IOException {
    Run broken = ArchiveCliTest.cli("analyze", "--out", tmp.resolve("broken").toString(),
        archive.toString());
    assertEquals(2, broken.code(), broken.err()); // the damage is real
    assertTrue(broken.err().contains("loadprof archive"), broken.err());

    Run again = ArchiveCliTest.cli("archive", "--out", archive.toString(),
        E2e.trace("phases").toString(), E2e.trace("mixed").toString());
    assertEquals(0, again.code(), again.out() + again.err());
    assertTrue(again.out().contains("Re-creating run " + runId), again.out());
    assertTrue(again.out().contains("1 repaired"), again.out());

    Path intact = tmp.resolve("intact-out");
    if (!Files.exists(intact.resolve("summary.json"))) {
      Run reference = ArchiveCliTest.cli("analyze", "--out", intact.toString(),
          archived("intact").toString());
      assertEquals(0, reference.code(), reference.err());
    }
    Path repaired = tmp.resolve("repaired-out-" + runId);
    Run run = ArchiveCliTest.cli("analyze", "--out", repaired.toString(), archive.toString());
    assertEquals(0, run.code(), run.err());
    ArchiveCliTest.assertSameOutputs(intact, repaired);
  }

  @Test
  void aTruncatedManifestIsRecreatedByArchivingTheTraceAgain() throws IOException {
    Path archive = archived("manifest");
    Path manifest = archive.resolve("runs").resolve("mixed.avro");
    byte[] bytes = Files.readAllBytes(manifest);
    Files.write(manifest, Arrays.copyOf(bytes, bytes.length - 40));
    assertRepairedByArchivingAgain(archive, "mixed");
  }

  @Test
  void aDamagedBlockFileIsRecreatedByArchivingTheTraceAgain() throws IOException {
    Path archive = archived("block");
    Path file;
    try (Stream<Path> walk = Files.walk(archive.resolve("blocks").resolve("phases"))) {
      file = walk.filter(p -> p.toString().endsWith(".avro")).sorted().findFirst()
          .orElseThrow();
    }
    ArchiveCliTest.damageTheBlocks(file);
    assertRepairedByArchivingAgain(archive, "phases");
  }
}
