package dev.loadprof.archive.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.archive.IndexEntry;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.beam.sdk.io.FileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest's checksum is taken in the schema it was written with: archives written before a
 * field was added to the manifest still check, and the checksums of today's manifests are the
 * ones every format-3 archive already holds.
 */
class ManifestChecksumTest {
  @TempDir Path tmp;

  @Test
  void todaysManifestsKeepTheChecksumsArchivesHold() throws IOException {
    RunManifestRecord m = manifest();
    // The checksum as it was computed when format 3 began: the specific record, maps sorted.
    RunManifestRecord c = RunManifestRecord.newBuilder(m).build();
    c.setProcessNames(new TreeMap<>(m.getProcessNames()));
    c.setHealth(new TreeMap<>(m.getHealth()));
    c.setBuildIds(new TreeMap<>(m.getBuildIds()));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new SpecificDatumWriter<>(RunManifestRecord.class).write(c, encoder);
    encoder.flush();
    assertEquals(IndexEntry.sha256Hex(bytes.toByteArray()), ArchiveFiles.checksum(m));
  }

  /**
   * A manifest written before blocks_version existed (every archive of 2026-11-27 and before)
   * reads, as version 0, and checks. Before, the reader took the checksum in its own schema and
   * called such an archive damaged.
   */
  @Test
  void aManifestOfAnOlderSchemaStillChecks() throws IOException {
    Schema current = RunManifestRecord.getClassSchema();
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : current.getFields()) {
      if (!f.name().equals("blocks_version")) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    Schema older = Schema.createRecord(current.getName(), current.getDoc(),
        current.getNamespace(), false, fields);
    RunManifestRecord m = manifest();
    GenericData.Record written = new GenericData.Record(older);
    for (Schema.Field f : older.getFields()) {
      written.put(f.pos(), m.get(f.name()));
    }
    Path file = tmp.resolve("run.avro");
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(older))) {
      w.setMeta(ArchiveFiles.CHECKSUM_META, ArchiveFiles.checksum(m, older));
      w.create(older, Files.newOutputStream(file));
      w.append(written);
    }

    RunManifestRecord read = ArchiveFiles.readManifest(
        FileSystems.matchNewResource(file.toString(), false));
    assertEquals(m.getProcessNames(), read.getProcessNames());
    assertEquals(m.getBuildIds(), read.getBuildIds());
    assertEquals(0, read.getBlocksVersion());
  }

  static RunManifestRecord manifest() {
    Map<String, String> names = new HashMap<>();
    names.put("4021", "mixed");
    names.put("17", "perf");
    names.put("903", "bash");
    Map<String, Long> health = new HashMap<>();
    health.put("switch_records", 4567L);
    health.put("sample_records", 8607L);
    health.put("chain_breaks_repaired", 342L);
    Map<String, String> buildIds = new HashMap<>();
    buildIds.put("/usr/lib/x86_64-linux-gnu/libc.so.6", "93ac61ec5a8eb1396f9fbd350e3169a5");
    buildIds.put("/tmp/w/mixed", "0b1c");
    return RunManifestRecord.newBuilder()
        .setFormatVersion(3).setRunId("mixed").setSource("/tmp/mixed.txt.gz")
        .setFingerprint("sha256:00").setHost("vm").setCapturedOn("2026-11-27")
        .setStartNs(1L).setEndNs(2_000_000_000L).setCpuCount(2)
        .setSamplingEvent("cpu-clock:u").setRequestedEvent(null).setPeriodIsNs(true)
        .setSampleIntervalNs(250_000).setLayout("fields").setPidSource("trace")
        .setWindowNs(1_000_000_000L).setProcessNames(names).setHealth(health)
        .setMalformedExamples(List.of("t.txt:3: bad")).setWarnings(List.of("a warning"))
        .setBlockCount(8).setBlockFiles(List.of(new BlockFileRecord("blocks/mixed/j-0.avro", 12L)))
        .setNight("2026-11-27").setJobId("job1").setBuildIds(buildIds)
        .setBlocksVersion(1)
        .build();
  }
}
