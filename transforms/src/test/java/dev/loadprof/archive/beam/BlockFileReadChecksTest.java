package dev.loadprof.archive.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.BlockFileRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.FileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block file is checked as it is read, with the messages the checks before a job give: a run
 * the client leaves to the job (its night index lists it) is not checked twice, so reading is
 * where a wrong size or a file of other records is said.
 */
class BlockFileReadChecksTest {
  @TempDir Path tmp;

  private Path otherRecords() throws IOException {
    Schema schema = SchemaBuilder.record("Thing").namespace("other").fields()
        .requiredLong("n").endRecord();
    Path file = tmp.resolve("b-0.avro");
    try (DataFileWriter<GenericRecord> out = new DataFileWriter<>(
        new GenericDatumWriter<>(schema))) {
      out.create(schema, file.toFile());
      GenericRecord r = new GenericData.Record(schema);
      r.put("n", 1L);
      out.append(r);
    }
    return file;
  }

  private static BlockFileRef ref(Path file, long size) {
    return new BlockFileRef(file.toString(), size, "run", 1_000_000_000L, 0, 1, "m.avro", 1,
        false);
  }

  @Test
  void aFileOfOtherRecordsIsSaidWhereItIsReadAsBeforeTheJob() throws IOException {
    Path file = otherRecords();
    long size = Files.size(file);
    ArchiveCorruptException read = assertThrows(ArchiveCorruptException.class,
        () -> ArchiveFiles.readBlocks(ref(file, size), b -> { }));
    ArchiveCorruptException before = assertThrows(ArchiveCorruptException.class,
        () -> RunChecks.checkFirstBlock(FileSystems.matchNewResource(file.toString(), false),
            ref(file, size)));
    assertEquals(file + ": holds other.Thing records, not event blocks; re-create it with loadprof archive",
        read.getMessage());
    assertEquals(before.getMessage(), read.getMessage());
    ArchiveCorruptException readAhead = assertThrows(ArchiveCorruptException.class,
        () -> ArchiveFiles.readBlocks(ref(file, size), Files.readAllBytes(file), b -> { }));
    assertEquals(read.getMessage(), readAhead.getMessage(), "bytes read ahead: the same check");
  }

  @Test
  void aFileOfAnotherSizeThanItsManifestSaysIsSaidWhereItIsRead() throws IOException {
    Path file = otherRecords();
    long size = Files.size(file);
    ArchiveCorruptException read = assertThrows(ArchiveCorruptException.class,
        () -> ArchiveFiles.readBlocks(ref(file, size + 7), b -> { }));
    assertEquals(file + ": corrupt or truncated Avro file (" + size + " bytes, the manifest says "
        + (size + 7) + "); re-create it with loadprof archive", read.getMessage());
    byte[] bytes = Files.readAllBytes(file);
    ArchiveCorruptException readAhead = assertThrows(ArchiveCorruptException.class,
        () -> ArchiveFiles.readBlocks(ref(file, size + 7), bytes, b -> { }));
    assertEquals(read.getMessage(), readAhead.getMessage(), "bytes read ahead: the same check");
    Files.delete(file);
    ArchiveCorruptException gone = assertThrows(ArchiveCorruptException.class,
        () -> ArchiveFiles.readBlocks(ref(file, size), b -> { }));
    assertEquals(file + ": block file is missing; re-create it with loadprof archive",
        gone.getMessage());
  }
}
