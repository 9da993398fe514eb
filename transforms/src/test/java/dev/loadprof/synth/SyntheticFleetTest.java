package dev.loadprof.synth;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticFleetTest {
  @Test
  void fleetWritesRunsAndManifestsDeterministically(@TempDir Path dir) throws IOException {
    List<SyntheticFleet.Run> runs = SyntheticFleet.generate(dir.resolve("a"), 3, 77);
    SyntheticFleet.generate(dir.resolve("b"), 3, 77);
    assertEquals(3, runs.size());
    for (SyntheticFleet.Run r : runs) {
      assertTrue(Files.size(r.file()) > 0);
      assertThat(r.trace().cpus(), allOf(greaterThanOrEqualTo(32), lessThanOrEqualTo(128)));
      Path twin = dir.resolve("b").resolve(r.file().getFileName());
      assertArrayEquals(Files.readAllBytes(r.file()), Files.readAllBytes(twin));
    }
    List<String> rows = Files.readAllLines(dir.resolve("a").resolve(SyntheticFleet.MANIFEST));
    assertEquals(1 + 3, rows.size()); // header + one process per run (no noise in fleets)
    assertTrue(rows.get(1).startsWith("run-000.txt.gz\t"));
    String[] header = rows.get(0).split("\t");
    for (String row : rows) {
      assertEquals(header.length, row.split("\t").length, row);
    }
    assertEquals(Files.readAllLines(dir.resolve("a").resolve(SyntheticFleet.FUNCTION_MANIFEST)),
        Files.readAllLines(dir.resolve("b").resolve(SyntheticFleet.FUNCTION_MANIFEST)));
  }
}
