package dev.loadprof.archive.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.junit.jupiter.api.Test;

/**
 * The manifest decoder that parses a schema once, not once per file, decodes exactly what
 * Avro's DataFileStream decodes, and leaves to it every file that is not of loadprof's simple
 * shape, damaged ones included, so that what is said of them does not change.
 */
class ManifestDecoderTest {
  private static final ResourceId FILE =
      FileSystems.matchNewResource("/archive/runs/mixed.avro", false);

  @Test
  void aManifestAsLoadprofWritesItDecodesAsAvroDecodesIt() throws IOException {
    byte[] bytes = written(ManifestChecksumTest.manifest());
    ManifestDecoder.Decoded decoded = ManifestDecoder.decode(bytes);
    assertNotNull(decoded);
    assertEquals(avro(bytes), decoded.manifest());
    assertEquals(RunManifestRecord.getClassSchema(), decoded.writtenWith());
    assertEquals(ArchiveFiles.checksum(ManifestChecksumTest.manifest()),
        decoded.metaString(ArchiveFiles.CHECKSUM_META));
    assertEquals(decoded.manifest(), ManifestDecoder.decode(bytes).manifest()); // schema cached
    assertEquals(decoded.manifest(), ArchiveFiles.readManifest(FILE, bytes));
  }

  /**
   * Every cut of the file is left to Avro; every file with one byte changed either decodes to
   * what Avro decodes from it or is left to Avro.
   */
  @Test
  void aCutOrChangedFileIsDecodedAsAvroDecodesItOrLeftToAvro() throws IOException {
    byte[] bytes = written(ManifestChecksumTest.manifest());
    for (int cut = 0; cut < bytes.length; cut++) {
      assertNull(ManifestDecoder.decode(Arrays.copyOf(bytes, cut)), "cut at " + cut);
    }
    int decodedHere = 0;
    int schemaEnd = indexOf(bytes, "avro.codec".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    for (int at = 0; at < bytes.length; at++) {
      // In the schema's JSON a changed byte is another schema (parsed each time): one change
      // a byte there; varints' lengths and counts elsewhere get their sign and high bits too.
      for (int flip : at < schemaEnd ? new int[] {0x01} : new int[] {0x01, 0x80, 0xff}) {
        byte[] changed = bytes.clone();
        changed[at] ^= (byte) flip;
        ManifestDecoder.Decoded decoded = ManifestDecoder.decode(changed);
        if (decoded != null) {
          decodedHere++;
          assertEquals(avro(changed), decoded.manifest(), "byte " + at + " ^ " + flip);
        }
      }
    }
    assertTrue(decodedHere > 0);
  }

  /**
   * A manifest written before the fields that have defaults (night, job_id, the loss timeline,
   * thread forks...) decodes, by the fast reader, to what Avro's resolving reader gives: the
   * defaults, and the same types of every field (strings as the compiled class has them).
   */
  @Test
  void aManifestOfAnOlderSchemaDecodesAsAvroResolvesIt() throws IOException {
    org.apache.avro.Schema current = RunManifestRecord.getClassSchema();
    java.util.List<org.apache.avro.Schema.Field> kept = new java.util.ArrayList<>();
    for (org.apache.avro.Schema.Field f : current.getFields()) {
      if (!f.hasDefaultValue()) {
        kept.add(new org.apache.avro.Schema.Field(f, f.schema()));
      }
    }
    org.apache.avro.Schema older = org.apache.avro.Schema.createRecord(current.getName(),
        current.getDoc(), current.getNamespace(), false, kept);
    RunManifestRecord m = ManifestChecksumTest.manifest();
    org.apache.avro.generic.GenericRecord asOlder = new org.apache.avro.generic.GenericData
        .Record(older);
    for (org.apache.avro.Schema.Field f : older.getFields()) {
      asOlder.put(f.name(), m.get(current.getField(f.name()).pos()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<org.apache.avro.generic.GenericRecord> w = new DataFileWriter<>(
        new org.apache.avro.generic.GenericDatumWriter<>(older))) {
      w.create(older, out);
      w.append(asOlder);
    }
    byte[] bytes = out.toByteArray();
    ManifestDecoder.Decoded decoded = ManifestDecoder.decode(bytes);
    assertNotNull(decoded);
    RunManifestRecord expected = avro(bytes);
    assertEquals(expected, decoded.manifest());
    assertEquals(older, decoded.writtenWith());
    for (org.apache.avro.Schema.Field f : current.getFields()) {
      Object a = expected.get(f.pos());
      Object b = decoded.manifest().get(f.pos());
      assertEquals(a == null ? null : a.getClass(), b == null ? null : b.getClass(), f.name());
      assertEquals(a, b, f.name()); // a map's order aside: every reader of one sorts it
    }
  }

  /**
   * Every field of a manifest as loadprof writes it decodes to the type Avro's reader gives. A
   * map may iterate in another order (the fast reader sizes it otherwise): its every reader
   * sorts it (ArchiveConversions, the checksum) or looks a key up.
   */
  @Test
  void everyFieldDecodesToTheTypeAvroGives() throws IOException {
    byte[] bytes = written(ManifestChecksumTest.manifest());
    RunManifestRecord expected = avro(bytes);
    RunManifestRecord decoded = ManifestDecoder.decode(bytes).manifest();
    for (org.apache.avro.Schema.Field f : RunManifestRecord.getClassSchema().getFields()) {
      Object a = expected.get(f.pos());
      Object b = decoded.get(f.pos());
      assertEquals(a == null ? null : a.getClass(), b == null ? null : b.getClass(), f.name());
      if (a instanceof java.util.Map<?, ?> ma && !ma.isEmpty()) {
        Object ka = ma.keySet().iterator().next();
        Object kb = ((java.util.Map<?, ?>) b).keySet().iterator().next();
        assertEquals(ka.getClass(), kb.getClass(), f.name() + "'s keys");
        assertEquals(ma.get(ka).getClass(), ((java.util.Map<?, ?>) b).get(kb).getClass(),
            f.name() + "'s values");
      }
      if (a instanceof java.util.List<?> la && !la.isEmpty()) {
        assertEquals(la.get(0).getClass(), ((java.util.List<?>) b).get(0).getClass(),
            f.name() + "'s items");
      }
    }
  }

  @Test
  void anotherCodecOrASecondManifestIsLeftToAvroWhichSaysWhatIsWrong() throws IOException {
    RunManifestRecord m = ManifestChecksumTest.manifest();
    byte[] deflated = written(CodecFactory.deflateCodec(6), m);
    assertNull(ManifestDecoder.decode(deflated));
    assertEquals(m.getRunId(), ArchiveFiles.readManifest(FILE, deflated).getRunId());

    byte[] two = written(CodecFactory.nullCodec(), m, m);
    assertNull(ManifestDecoder.decode(two));
    ArchiveCorruptException e = assertThrows(ArchiveCorruptException.class,
        () -> ArchiveFiles.readManifest(FILE, two));
    assertTrue(e.getMessage().contains("more than one manifest"), e.getMessage());
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    for (int i = 0; i + part.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    return bytes.length;
  }

  private static byte[] written(RunManifestRecord m) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ArchiveFiles.writeManifest(m, out);
    return out.toByteArray();
  }

  private static byte[] written(CodecFactory codec, RunManifestRecord... manifests)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<RunManifestRecord> w =
        new DataFileWriter<>(new SpecificDatumWriter<>(RunManifestRecord.class))) {
      w.setCodec(codec);
      w.setMeta(ArchiveFiles.CHECKSUM_META, ArchiveFiles.checksum(manifests[0]));
      w.create(RunManifestRecord.getClassSchema(), out);
      for (RunManifestRecord m : manifests) {
        w.append(m);
      }
    }
    return out.toByteArray();
  }

  private static RunManifestRecord avro(byte[] bytes) throws IOException {
    try (DataFileStream<RunManifestRecord> records = new DataFileStream<>(
        new ByteArrayInputStream(bytes), new SpecificDatumReader<>(RunManifestRecord.class))) {
      RunManifestRecord m = records.next();
      assertTrue(!records.hasNext());
      return m;
    }
  }
}
