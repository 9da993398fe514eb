package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.beam.EventBlockCoder;
import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import dev.loadprof.model.Intervals;
import dev.loadprof.model.RunInfo;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.RunIds;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.parse.TraceFixtures;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Blocks and runs of real fixture traces survive the trip through Avro exactly. */
class ArchiveConversionsTest {
  static final String PHASES = "phases";
  static final String MIXED = "mixed";

  record Parsed(List<EventBlock> blocks, RunInfo run) {}

  /** Parses a fixture trace the way ParseTraces does. */
  static Parsed parse(String fixture, long windowNs) throws IOException {
    String path = TraceFixtures.path(fixture).toString();
    List<EventBlock> blocks = new ArrayList<>();
    PerfScriptParser parser = new PerfScriptParser();
    BlockBuilder builder = new BlockBuilder(RunIds.of(path), path, windowNs, null,
        blocks::add);
    try (InputStream in = TraceFiles.open(Path.of(path))) {
      parser.read(in, path, builder);
    }
    RunInfo run = builder.finish();
    run.host = parser.hostName();
    return new Parsed(blocks, run);
  }

  @ParameterizedTest
  @ValueSource(strings = {PHASES, MIXED})
  void blocksRoundTripThroughAvroFiles(String trace) throws IOException {
    // Short windows: more blocks, more carry-in states and block edges to get right.
    Parsed parsed = parse(trace, 50_000_000L);
    assertTrue(parsed.blocks().size() > 20, "fixture has blocks");
    List<EventBlockRecord> records = new ArrayList<>();
    for (EventBlock b : parsed.blocks()) {
      records.add(ArchiveConversions.toRecord(b));
    }
    List<EventBlockRecord> back = readBack(writeAvro(records, CodecFactory.snappyCodec()));
    assertEquals(parsed.blocks().size(), back.size());
    for (int i = 0; i < back.size(); i++) {
      EventBlock original = parsed.blocks().get(i);
      EventBlock decoded = ArchiveConversions.fromRecord(back.get(i));
      // The pipeline's own coder covers every field: equal encodings mean equal blocks.
      assertArrayEquals(CoderUtils.encodeToByteArray(EventBlockCoder.of(), original),
          CoderUtils.encodeToByteArray(EventBlockCoder.of(), decoded), "block " + original);
    }
  }

  /**
   * Block files written before each CPU's state kept its last sample (blocks_version 1 and
   * before) still read: Avro fills in "none yet", and such a block is replayed as before.
   */
  @Test
  void blocksWrittenBeforeTheCpusLastTickWasKeptStillRead() throws IOException {
    Parsed parsed = parse(MIXED, 50_000_000L);
    String current = EventBlockRecord.getClassSchema().toString();
    String withoutTick = current.replaceFirst(",\\{\"name\":\"last_tick_ns\"[^}]*\\}", "");
    assertTrue(withoutTick.length() < current.length(), "the field was found and taken out");
    org.apache.avro.Schema older = new org.apache.avro.Schema.Parser().parse(withoutTick);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    // last_tick_ns is the last field of the carry-in record, so the other fields keep their
    // positions and a specific record writes in the older schema as it would have then.
    try (DataFileWriter<EventBlockRecord> w =
        new DataFileWriter<>(new SpecificDatumWriter<>(older))) {
      w.create(older, bytes);
      for (EventBlock b : parsed.blocks()) {
        w.append(ArchiveConversions.toRecord(b));
      }
    }
    List<EventBlockRecord> back = readBack(bytes.toByteArray());
    assertEquals(parsed.blocks().size(), back.size());
    long carriedTicks = 0;
    for (int i = 0; i < back.size(); i++) {
      EventBlock original = parsed.blocks().get(i);
      EventBlock decoded = ArchiveConversions.fromRecord(back.get(i));
      assertEquals(Long.MIN_VALUE, decoded.carryIn.lastTickNs);
      carriedTicks += original.carryIn.lastTickNs != Long.MIN_VALUE ? 1 : 0;
      decoded.carryIn.lastTickNs = original.carryIn.lastTickNs;
      assertEquals(original, decoded, "block " + original);
    }
    assertTrue(carriedTicks > 20, "today's blocks carry their CPU's last tick: " + carriedTicks);
  }

  @ParameterizedTest
  @ValueSource(strings = {PHASES, MIXED})
  void runInfoRoundTripsThroughManifest(String trace) throws IOException {
    RunInfo run = parse(trace, 1_000_000_000L).run();
    assertTrue(run.hasSubject(), "perf record -- " + trace + ": the program perf started");
    run.warnings.add(0, "UNUSABLE: pretend");
    run.buildIds.put("/usr/lib/x86_64-linux-gnu/libc.so.6",
        "93ac61ec5a8eb1396f9fbd350e3169a558528a40");
    run.losses.lost(run.startNs + 5_000_000, 17);
    run.losses.lost(0, 20);
    RunManifestRecord manifest = manifestOf(run);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<RunManifestRecord> w =
        new DataFileWriter<>(new SpecificDatumWriter<>(RunManifestRecord.class))) {
      w.create(RunManifestRecord.getClassSchema(), bytes);
      w.append(manifest);
    }
    RunManifestRecord read = readManifest(bytes.toByteArray());
    assertEquals(BlockBuilder.BLOCKS_VERSION, read.getBlocksVersion());
    RunInfo back = ArchiveConversions.fromManifest(read);
    assertEquals(run, back);
    assertEquals(run.health.counters().toString(), back.health.counters().toString());
    assertEquals(run.processNames.toString(), back.processNames.toString());
    assertEquals(run.buildIds, back.buildIds);
    // the critical path's thread-start edges: without them an archived run's path differed
    // from its trace's (StoresIT saw summary.json differ)
    assertTrue(!run.threadForks.isEmpty(), "the traces record their threads' forks");
    assertEquals(forksOf(run), forksOf(back));
    // where perf lost records, and the records around them, for compare's loss rule
    assertEquals(20, back.losses.totalLost());
    assertEquals(3, back.losses.unplaced());
    assertEquals(17, back.losses.lostWithin(run.startNs, run.startNs + 5_000_000));
    assertEquals(run.losses.recordsWithin(run.startNs, run.endNs),
        back.losses.recordsWithin(run.startNs, run.endNs), 1e-9);
    double records = back.losses.recordsWithin(0, Long.MAX_VALUE / 2);
    assertTrue(records > 0.9 * (run.health.get("sample_records")
        + run.health.get("switch_records")), "" + records);
  }

  private static String forksOf(RunInfo run) {
    StringBuilder b = new StringBuilder();
    run.threadForks.forEach((tid, f) -> b.append(tid).append('@').append(f[0]).append('<')
        .append(f[1]).append(' '));
    return b.toString();
  }

  private static RunManifestRecord manifestOf(RunInfo run) {
    return ArchiveConversions.toManifest(run,
        new ArchiveConversions.Storage("sha256:00", null, 1_000_000_000L, 3,
            List.of(new BlockFileRecord("blocks/x/j-00000.avro", 12L)), "2026-11-20", "job1"));
  }

  /** The manifest of an Avro file, in today's schema (older files are resolved to it). */
  private static RunManifestRecord readManifest(byte[] file) throws IOException {
    try (DataFileStream<RunManifestRecord> r = new DataFileStream<>(
        new ByteArrayInputStream(file), new SpecificDatumReader<>(RunManifestRecord.class))) {
      return r.next();
    }
  }

  /** A manifest written before subject_pid existed reads as a run that names no subject. */
  @Test
  void aManifestWithoutTheSubjectReadsAsNoSubject() throws IOException {
    RunInfo run = parse(PHASES, 1_000_000_000L).run();
    RunManifestRecord manifest = manifestOf(run);
    Schema current = RunManifestRecord.getClassSchema();
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : current.getFields()) {
      if (!f.name().startsWith("subject_")) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    Schema older = Schema.createRecord(current.getName(), current.getDoc(),
        current.getNamespace(), false, fields);
    GenericData.Record written = new GenericData.Record(older);
    for (Schema.Field f : older.getFields()) {
      written.put(f.pos(), manifest.get(f.name()));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(older))) {
      w.create(older, bytes);
      w.append(written);
    }
    RunManifestRecord read = readManifest(bytes.toByteArray());
    RunInfo back = ArchiveConversions.fromManifest(read);
    assertEquals(RunInfo.NO_SUBJECT, back.subjectPid);
    assertEquals(List.of(), new ArrayList<>(back.subjectPids));
    assertEquals(run.processNames, back.processNames);
  }

  @Test
  void damagedColumnsAreRejected() throws IOException {
    EventBlock block = parse(PHASES, 1_000_000_000L).blocks().stream()
        .filter(b -> b.samples.count > 5).findFirst().orElseThrow();
    EventBlockRecord r = ArchiveConversions.toRecord(block);
    r.setSampleCount(block.samples.count + 1);
    assertThrows(IllegalArgumentException.class, () -> ArchiveConversions.fromRecord(r));
    EventBlockRecord r2 = ArchiveConversions.toRecord(block);
    ByteBuffer tids = r2.getSampleTid();
    r2.setSampleTid(ByteBuffer.wrap(new byte[] {(byte) 0x80}));
    assertThrows(IllegalArgumentException.class, () -> ArchiveConversions.fromRecord(r2));
    assertTrue(tids.remaining() > 0);
  }

  @Test
  void framesKeepTheirAddressesAndOldArchivesReadAsAddressZero() throws IOException {
    EventBlock block = parse(PHASES, 1_000_000_000L).blocks().stream()
        .filter(b -> b.stackTable.frames.length > 5).findFirst().orElseThrow();
    Frame[] frames = block.stackTable.frames;
    assertTrue(Arrays.stream(frames).anyMatch(f -> f.address() != 0), "perf printed ips");
    assertArrayEquals(frames, ArchiveConversions.fromRecord(
        ArchiveConversions.toRecord(block)).stackTable.frames);
    // An archive written before frame_addresses existed: Avro fills in the default, "".
    EventBlockRecord old = ArchiveConversions.toRecord(block);
    old.setFrameAddresses(ByteBuffer.allocate(0));
    EventBlock back = ArchiveConversions.fromRecord(old);
    assertEquals(frames.length, back.stackTable.frames.length);
    for (int i = 0; i < frames.length; i++) {
      assertEquals(new Frame(frames[i].symbol(), frames[i].dso()), back.stackTable.frames[i]);
    }
    assertTrue(EventBlockRecord.getClassSchema().getField("frame_addresses").hasDefaultValue());
  }

  @Test
  void parsedBlocksOnlyAreArchived() throws IOException {
    EventBlock block = parse(PHASES, 1_000_000_000L).blocks().get(0);
    block.intervals = new Intervals();
    assertThrows(IllegalArgumentException.class, () -> ArchiveConversions.toRecord(block));
  }

  static byte[] writeAvro(List<EventBlockRecord> records, CodecFactory codec) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<EventBlockRecord> w =
        new DataFileWriter<>(new SpecificDatumWriter<>(EventBlockRecord.class))) {
      w.setCodec(codec);
      w.create(EventBlockRecord.getClassSchema(), bytes);
      for (EventBlockRecord r : records) {
        w.append(r);
      }
    }
    return bytes.toByteArray();
  }

  static List<EventBlockRecord> readBack(byte[] file) throws IOException {
    List<EventBlockRecord> out = new ArrayList<>();
    try (DataFileStream<EventBlockRecord> r = new DataFileStream<>(
        new ByteArrayInputStream(file), new SpecificDatumReader<>(EventBlockRecord.class))) {
      r.forEach(out::add);
    }
    return out;
  }
}
