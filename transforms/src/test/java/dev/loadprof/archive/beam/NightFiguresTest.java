package dev.loadprof.archive.beam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.IndexEntry;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The night figures file's name and content, and what a damaged or hostile one is refused for. */
class NightFiguresTest {
  private static final String NIGHT = "2026-11-20";

  private static Map<String, Long> listed(long webSize, long dbSize) {
    Map<String, Long> m = new TreeMap<>();
    m.put("night=2026-11-20/host=web1/@job7", webSize);
    m.put("night=2026-11-20/host=db1/@job7", dbSize);
    return m;
  }

  private static NightFiguresCodec.Content twoRuns() {
    Map<String, byte[]> indexes = new TreeMap<>();
    indexes.put("night=2026-11-20/host=web1/@job7", "index".getBytes(StandardCharsets.UTF_8));
    Map<String, NightFiguresCodec.Entry> runs = new LinkedHashMap<>();
    runs.put("a@job7", new NightFiguresCodec.Entry("manifest a".getBytes(StandardCharsets.UTF_8),
        "figures a".getBytes(StandardCharsets.UTF_8)));
    runs.put("b@job7", new NightFiguresCodec.Entry("manifest b".getBytes(StandardCharsets.UTF_8),
        null));
    return new NightFiguresCodec.Content(indexes, runs);
  }

  /**
   * Damaged files of many nights, read on several threads, are each said once, in the nights'
   * order, to a consumer that is not safe for threads (the listing's list of notes): said on
   * the reading threads, two at once made one note.
   */
  @Test
  void everyDamagedFileOfManyNightsIsSaidOnceInTheNightsOrder(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path archive) throws IOException {
    Map<String, Map<String, Long>> listed = new TreeMap<>();
    java.util.List<String> expected = new java.util.ArrayList<>();
    for (int day = 0; day < 60; day++) {
      String night = java.time.LocalDate.of(2026, 9, 1).plusDays(day).toString();
      Map<String, Long> indexes = Map.of("night=" + night + "/host=web1/@job7", 10L + day);
      listed.put(night, indexes);
      java.nio.file.Path file = java.nio.file.Path.of(NightFigures.file(archive.toString(),
          night, NightFigures.set(indexes), "nightly-4-ab").toString());
      java.nio.file.Files.createDirectories(file.getParent());
      java.nio.file.Files.writeString(file, "damaged");
      expected.add(file.toString());
    }
    java.util.List<String> said = new java.util.ArrayList<>(); // as the listing's notes
    new NightFigures.Packs("nightly-4-ab", said::add).lookUp(archive.toString(), listed);
    assertEquals(expected.size(), said.size(), said.toString());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(said.get(i).startsWith(expected.get(i) + ": a night's figures file cannot be"
          + " read"), said.get(i));
    }
  }

  /**
   * A run whose manifest comes with its night's file is known as such before it is checked
   * (then its check makes no request, and the checks' window ahead does not count it:
   * LocalRunChecks), and no longer once its manifest is taken; a run of the same night missing
   * from the file, or of a night without a file, or listed by no night index, is not.
   */
  @Test
  void aRunIsKnownToHoldItsManifestInItsNightsFileUntilTaken(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path archive) throws IOException {
    String kind = "nightly-4-ab";
    Map<String, Long> indexes = Map.of("night=2026-11-20/host=web1/@job7", 5L);
    Map<String, byte[]> indexBytes = Map.of("night=2026-11-20/host=web1/@job7",
        "index".getBytes(StandardCharsets.UTF_8));
    java.nio.file.Path file = java.nio.file.Path.of(NightFigures.file(archive.toString(), NIGHT,
        NightFigures.set(indexes), kind).toString());
    java.nio.file.Files.createDirectories(file.getParent());
    java.nio.file.Files.write(file, NightFiguresCodec.encode(NIGHT, NightFigures.set(indexes),
        new NightFiguresCodec.Content(indexBytes, twoRuns().runs())));
    Map<String, Map<String, Long>> listed = new TreeMap<>();
    listed.put(NIGHT, indexes);
    listed.put("2026-11-21", Map.of("night=2026-11-21/host=web1/@job7", 5L)); // no file
    java.util.List<String> said = new java.util.ArrayList<>();
    NightFigures.Packs packs = new NightFigures.Packs(kind, said::add);
    packs.lookUp(archive.toString(), listed);
    assertEquals(java.util.List.of(), said);
    org.apache.beam.sdk.values.KV<String, ArchiveListing.ManifestRef> a = ref(archive, "a", NIGHT);
    assertTrue(packs.holdsManifest(a));
    assertTrue(packs.holdsManifest(ref(archive, "b", NIGHT)), "a run without figures too");
    assertTrue(!packs.holdsManifest(ref(archive, "c", NIGHT)), "not in the file");
    assertTrue(!packs.holdsManifest(ref(archive, "a", "2026-11-21")), "a night without a file");
    assertTrue(!packs.holdsManifest(org.apache.beam.sdk.values.KV.of(archive.toString(),
        new ArchiveListing.ManifestRef(archive.resolve("runs/a.avro").toString(), "job7"))),
        "listed by no night index");
    assertArrayEquals("manifest a".getBytes(StandardCharsets.UTF_8), packs.manifest(a));
    assertTrue(!packs.holdsManifest(a), "taken");
  }

  /** A night's stored figures are listed by one glob, which names each run's figures file. */
  @Test
  void aNightsGlobMatchesItsRunsFiguresFiles(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path archive) throws IOException {
    String file = RunFigures.file(archive.toString(), NIGHT, "a", "job7", 3, "k-1").toString();
    assertEquals(archive + "/figures/night=" + NIGHT + "/a/job7-b3-k-1.bin", file);
    assertEquals(archive + "/figures/night=" + NIGHT + "/*/*",
        RunFigures.nightGlob(archive.toString(), NIGHT));
    java.nio.file.Files.createDirectories(java.nio.file.Path.of(file).getParent());
    java.nio.file.Files.writeString(java.nio.file.Path.of(file), "figures");
    assertEquals(java.util.List.of(file), StoreListing.matchGlob(
        RunFigures.nightGlob(archive.toString(), NIGHT)).stream()
        .map(m -> m.resourceId().toString()).toList());
  }

  private static org.apache.beam.sdk.values.KV<String, ArchiveListing.ManifestRef> ref(
      java.nio.file.Path archive, String runId, String night) {
    dev.loadprof.archive.NightIndex.Run line = new dev.loadprof.archive.NightIndex.Run(runId,
        "job7", "sha", "cpu-clock", 1_000_000_000L, "fp", "src", java.util.List.of())
        .listedIn(night, "web1", "job7");
    return org.apache.beam.sdk.values.KV.of(archive.toString(), new ArchiveListing.ManifestRef(
        archive.resolve("runs/" + runId + ".avro").toString(), "job7", line, null));
  }

  @Test
  void theNameChangesWithAnyNightIndexAndHoldsTheNightAndKind() {
    String set = NightFigures.set(listed(100, 200));
    assertEquals(set, NightFigures.set(new java.util.HashMap<>(listed(100, 200))), "order-free");
    assertNotEquals(set, NightFigures.set(listed(100, 201)), "a night index of another size");
    Map<String, Long> more = listed(100, 200);
    more.put("night=2026-11-20/host=web1/@job8", 5L);
    assertNotEquals(set, NightFigures.set(more), "a night index more");
    assertEquals("/arch/night-figures/night=2026-11-20/" + set + "-nightly-2-ab.bin",
        NightFigures.file("/arch", NIGHT, set, "nightly-2-ab").toString());
  }

  @Test
  void roundTripKeepsEveryBytesAndARunWithoutFigures() throws IOException {
    byte[] bytes = NightFiguresCodec.encode(NIGHT, "s1", twoRuns());
    NightFiguresCodec.Content read = NightFiguresCodec.decode(bytes, NIGHT, "s1");
    assertArrayEquals("index".getBytes(StandardCharsets.UTF_8),
        read.indexes().get("night=2026-11-20/host=web1/@job7"));
    assertEquals(2, read.runs().size());
    assertArrayEquals("manifest a".getBytes(StandardCharsets.UTF_8),
        read.runs().get("a@job7").manifest());
    assertArrayEquals("figures a".getBytes(StandardCharsets.UTF_8),
        read.runs().get("a@job7").figures());
    assertNull(read.runs().get("b@job7").figures());
  }

  @Test
  void aFileOfAnotherNightOrNightIndexesIsRefused() throws IOException {
    byte[] bytes = NightFiguresCodec.encode(NIGHT, "s1", twoRuns());
    assertTrue(assertThrows(IOException.class, () -> NightFiguresCodec.decode(bytes, "2026-11-21",
        "s1")).getMessage().contains("not 2026-11-21"));
    assertThrows(IOException.class, () -> NightFiguresCodec.decode(bytes, NIGHT, "s2"));
  }

  @Test
  void damagedBytesAreRefusedByTheChecksumAndATruncatedFileToo() throws IOException {
    byte[] bytes = NightFiguresCodec.encode(NIGHT, "s1", twoRuns());
    for (int i : new int[] {0, 30, bytes.length / 2, bytes.length - 1}) {
      byte[] damaged = bytes.clone();
      damaged[i] ^= 0x01;
      assertThrows(IOException.class, () -> NightFiguresCodec.decode(damaged, NIGHT, "s1"),
          "byte " + i);
    }
    for (int len : new int[] {0, 10, 90, bytes.length - 1}) {
      assertThrows(IOException.class, () -> NightFiguresCodec.decode(Arrays.copyOf(bytes, len),
          NIGHT, "s1"), "length " + len);
    }
  }

  /** A file whose checksum holds but whose stated counts and sizes exceed its content. */
  @Test
  void sizesBeyondTheContentAreRefusedBeforeTheyAreUsed() throws IOException {
    assertTrue(hostile(out -> out.writeInt(Integer.MAX_VALUE))
        .contains("states 2147483647 night indexes"));
    String tooBig = hostile(out -> {
      out.writeInt(0);
      out.writeInt(1);
      out.writeUTF("a@j");
      out.writeInt(1 << 30);
    });
    assertTrue(tooBig.contains("a@j's bytes are stated as 1073741824"), tooBig);
    assertTrue(hostile(out -> {
      out.writeInt(1);
      out.writeUTF("i");
      out.writeInt(-5);
    }).contains("stated as -5"));
    assertTrue(hostile(out -> {
      out.writeInt(0);
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
      out.writeUTF(NIGHT);
      out.writeUTF("s1");
      body.write(out);
    }
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.write("loadprof-night-figures 1\n".getBytes(StandardCharsets.US_ASCII));
    file.write(IndexEntry.sha256Hex(content.toByteArray()).getBytes(StandardCharsets.US_ASCII));
    file.write('\n');
    content.writeTo(file);
    return assertThrows(IOException.class, () -> NightFiguresCodec.decode(file.toByteArray(),
        NIGHT, "s1")).getMessage();
  }
}
