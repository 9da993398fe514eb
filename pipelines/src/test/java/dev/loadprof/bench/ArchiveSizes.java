package dev.loadprof.bench;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.RunIds;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.schemas.EventBlockRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * How big the archive of each trace is next to its gzip text, per Avro codec, and how long
 * reading it back takes (1 s windows). Usage: ArchiveSizes TRACE...
 */
public final class ArchiveSizes {
  public static void main(String[] args) throws IOException {
    for (String trace : args) {
      long t0 = System.nanoTime();
      List<EventBlock> blocks = new ArrayList<>();
      BlockBuilder builder = new BlockBuilder(RunIds.of(trace), trace, 1_000_000_000L, null,
          blocks::add);
      try (InputStream in = TraceFiles.open(Path.of(trace))) {
        new PerfScriptParser().read(in, trace, builder);
      }
      builder.finish();
      long parseMs = (System.nanoTime() - t0) / 1_000_000;
      List<EventBlockRecord> records = new ArrayList<>();
      for (EventBlock b : blocks) {
        records.add(ArchiveConversions.toRecord(b));
      }
      long gz = Files.size(Path.of(trace));
      StringBuilder line = new StringBuilder(trace + ": gzip text " + gz + " B, parse "
          + parseMs + " ms; " + blocks.size() + " blocks");
      for (var codec : List.of(CodecFactory.nullCodec(), CodecFactory.snappyCodec(),
          CodecFactory.deflateCodec(6))) {
        byte[] file = write(records, codec);
        readBack(file); // warm up
        long r0 = System.nanoTime();
        for (EventBlockRecord r : readBack(file)) {
          ArchiveConversions.fromRecord(r);
        }
        long readMs = (System.nanoTime() - r0) / 1_000_000;
        line.append(String.format("; %s %d B (%.2fx gzip), read+decode %d ms", codec,
            file.length, file.length / (double) gz, readMs));
      }
      System.out.println(line);
    }
  }

  private static byte[] write(List<EventBlockRecord> records, CodecFactory codec)
      throws IOException {
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

  private static List<EventBlockRecord> readBack(byte[] file) throws IOException {
    List<EventBlockRecord> out = new ArrayList<>();
    try (DataFileStream<EventBlockRecord> r = new DataFileStream<>(
        new ByteArrayInputStream(file), new SpecificDatumReader<>(EventBlockRecord.class))) {
      r.forEach(out::add);
    }
    return out;
  }
}
