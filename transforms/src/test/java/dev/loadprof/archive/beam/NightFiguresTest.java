package dev.loadprof.archive.beam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The night figures file's name and content, and what a damaged or hostile one is refused for. */
class NightFiguresTest {
  private static final String PARTITION = "2026-11-20/web1/job7";

  private static NightIndex.Run line(String runId, String manifestSha) {
    return new NightIndex.Run(runId, "job7", manifestSha, "cpu-clock", 1_000_000_000L, "fp",
        "t.txt", List.of());
  }

  private static Map<String, NightFigures.Entry> twoRuns() {
    Map<String, NightFigures.Entry> runs = new LinkedHashMap<>();
    runs.put("a", new NightFigures.Entry("manifest a".getBytes(StandardCharsets.UTF_8),
        "figures a".getBytes(StandardCharsets.UTF_8)));
    runs.put("b", new NightFigures.Entry("manifest b".getBytes(StandardCharsets.UTF_8), null));
    return runs;
  }

  @Test
  void theNameChangesWithAnyRunsManifestAndHoldsNightHostJobAndKind() {
    List<NightIndex.Run> lines = List.of(line("a", "11"), line("b", "22"));
    String set = NightFigures.set(lines);
    assertEquals(set, NightFigures.set(List.of(lines.get(1), lines.get(0))), "order-free");
    assertNotEquals(set, NightFigures.set(List.of(line("a", "11"), line("b", "23"))));
    assertNotEquals(set, NightFigures.set(List.of(line("a", "11"))));
    assertEquals("/arch/night-figures/night=2026-11-20/host=web1/job7-" + set
        + "-nightly-2-ab.bin", NightFigures.file("/arch", PARTITION, lines, "nightly-2-ab")
        .toString());
  }

  @Test
  void roundTripKeepsEveryRunsBytesAndARunWithoutFigures() throws IOException {
    byte[] bytes = NightFigures.encode(PARTITION, "s1", twoRuns());
    Map<String, NightFigures.Entry> read = NightFigures.decode(bytes, PARTITION, "s1");
    assertEquals(2, read.size());
    assertArrayEquals("manifest a".getBytes(StandardCharsets.UTF_8), read.get("a").manifest());
    assertArrayEquals("figures a".getBytes(StandardCharsets.UTF_8), read.get("a").figures());
    assertNull(read.get("b").figures());
  }

  @Test
  void aFileOfAnotherNightIndexOrRunSetIsRefused() throws IOException {
    byte[] bytes = NightFigures.encode(PARTITION, "s1", twoRuns());
    assertTrue(assertThrows(IOException.class, () -> NightFigures.decode(bytes,
        "2026-11-21/web1/job7", "s1")).getMessage().contains("not 2026-11-21/web1/job7"));
    assertThrows(IOException.class, () -> NightFigures.decode(bytes, PARTITION, "s2"));
  }

  @Test
  void damagedBytesAreRefusedByTheChecksumAndATruncatedFileToo() throws IOException {
    byte[] bytes = NightFigures.encode(PARTITION, "s1", twoRuns());
    for (int i : new int[] {0, 30, bytes.length / 2, bytes.length - 1}) {
      byte[] damaged = bytes.clone();
      damaged[i] ^= 0x01;
      assertThrows(IOException.class, () -> NightFigures.decode(damaged, PARTITION, "s1"),
          "byte " + i);
    }
    for (int len : new int[] {0, 10, 90, bytes.length - 1}) {
      assertThrows(IOException.class, () -> NightFigures.decode(Arrays.copyOf(bytes, len),
          PARTITION, "s1"), "length " + len);
    }
  }

  /** A file whose checksum holds but whose stated counts and sizes exceed its content. */
  @Test
  void sizesBeyondTheContentAreRefusedBeforeTheyAreUsed() throws IOException {
    assertTrue(hostile(out -> out.writeInt(Integer.MAX_VALUE)).contains("states 2147483647 runs"));
    String tooBig = hostile(out -> {
      out.writeInt(1);
      out.writeUTF("a");
      out.writeInt(1 << 30);
    });
    assertTrue(tooBig.contains("run a's file states 1073741824 bytes"), tooBig);
    assertTrue(hostile(out -> {
      out.writeInt(1);
      out.writeUTF("a");
      out.writeInt(-5);
    }).contains("states -5 bytes"));
    assertTrue(hostile(out -> {
      out.writeInt(0);
      out.writeInt(7);
    }).contains("bytes after its last run"));
  }

  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static String hostile(Body body) throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(content))) {
      out.writeUTF(PARTITION);
      out.writeUTF("s1");
      body.write(out);
    }
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.write("loadprof-night-figures 1\n".getBytes(StandardCharsets.US_ASCII));
    file.write(IndexEntry.sha256Hex(content.toByteArray()).getBytes(StandardCharsets.US_ASCII));
    file.write('\n');
    content.writeTo(file);
    return assertThrows(IOException.class, () -> NightFigures.decode(file.toByteArray(),
        PARTITION, "s1")).getMessage();
  }
}
