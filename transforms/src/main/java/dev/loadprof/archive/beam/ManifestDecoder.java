package dev.loadprof.archive.beam;

import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.FastReaderBuilder;
import org.apache.avro.specific.SpecificData;

/**
 * Decodes a manifest file that is what loadprof writes (one Avro container, no codec, one block
 * of one manifest) with the schema it was written in parsed once per distinct schema, not once
 * per file: Avro's DataFileStream parses the header's schema (JSON) and builds a new resolver
 * for every file, half the CPU of decoding a small manifest, and a nightly decodes thousands.
 * It is decoded by Avro's fast reader ({@link FastReaderBuilder}: reading steps planned once
 * per schema), not the resolving decoder, whose grammar is stepped through for every value: a
 * manifest's loss timeline is thousands of longs (2.7 times faster on 3,000 manifests; the
 * same records, ManifestDecoderTest).
 *
 * <p>Anything else (another codec, more blocks, a header or size that does not add up) is not
 * decoded here ({@link #decode} gives null) and goes the general way ({@link ArchiveFiles}),
 * which says what is wrong with a damaged file as it always has.
 */
final class ManifestDecoder {
  /** A manifest as decoded, with the schema it was written in and its file's metadata. */
  record Decoded(RunManifestRecord manifest, Schema writtenWith, Map<String, byte[]> meta) {
    String metaString(String key) {
      byte[] value = meta.get(key);
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
  }

  private static final byte[] MAGIC = DataFileConstants.MAGIC;
  private static final int SYNC_SIZE = DataFileConstants.SYNC_SIZE;
  /** A few schemas at most are in use (one per manifest format); more are not kept. */
  private static final int MAX_SCHEMAS = 16;
  private static final Map<String, Reader> READERS = new ConcurrentHashMap<>();

  /**
   * A schema's reader: planned whole when made, then it holds no state of a read, so that many
   * threads use one (published through {@link #READERS}).
   */
  private record Reader(DatumReader<RunManifestRecord> fast, Schema writtenWith) {}

  private ManifestDecoder() {}

  /**
   * The file's one manifest, or null when the file is not of the simple shape this decodes
   * (the caller then reads it with Avro's DataFileStream). Every length read from the bytes is
   * checked against what is left before it is used.
   */
  static Decoded decode(byte[] bytes) {
    try {
      if (bytes.length < MAGIC.length + SYNC_SIZE
          || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
        return null;
      }
      BinaryDecoder in = DecoderFactory.get().binaryDecoder(bytes, MAGIC.length,
          bytes.length - MAGIC.length, null);
      Map<String, byte[]> meta = new HashMap<>();
      for (long n = in.readMapStart(); n != 0; n = in.mapNext()) {
        if (n > bytes.length) {
          return null; // more entries than bytes
        }
        for (long i = 0; i < n; i++) {
          byte[] key = sized(in);
          byte[] value = sized(in);
          if (key == null || value == null) {
            return null;
          }
          meta.put(new String(key, StandardCharsets.UTF_8), value);
        }
      }
      byte[] codec = meta.get(DataFileConstants.CODEC);
      byte[] schemaText = meta.get(DataFileConstants.SCHEMA);
      if (schemaText == null || (codec != null
          && !DataFileConstants.NULL_CODEC.equals(new String(codec, StandardCharsets.UTF_8)))) {
        return null;
      }
      byte[] sync = new byte[SYNC_SIZE];
      in.readFixed(sync);
      long count = in.readLong();
      long size = in.readLong();
      int start = bytes.length - remaining(in);
      if (count != 1 || size < 0 || size + SYNC_SIZE != remaining(in)
          || !Arrays.equals(bytes, (int) (start + size), bytes.length, sync, 0, SYNC_SIZE)) {
        return null; // not one manifest in one block that ends the file
      }
      Reader reader = readerOf(new String(schemaText, StandardCharsets.UTF_8));
      BinaryDecoder datum = DecoderFactory.get().binaryDecoder(bytes, start, (int) size, null);
      RunManifestRecord manifest = reader.fast().read(null, datum);
      if (!datum.isEnd()) {
        return null;
      }
      return new Decoded(manifest, reader.writtenWith(), meta);
    } catch (IOException | RuntimeException e) {
      return null; // the general way says what is wrong
    }
  }

  /** The bytes left to decode (the decoder reads from an array: all of them are there). */
  private static int remaining(BinaryDecoder in) throws IOException {
    return in.inputStream().available();
  }

  /** A string's or bytes' value (its length, then its bytes), or null when it runs past the end. */
  private static byte[] sized(BinaryDecoder in) throws IOException {
    long size = in.readLong();
    if (size < 0 || size > remaining(in)) {
      return null;
    }
    byte[] value = new byte[(int) size];
    in.readFixed(value);
    return value;
  }

  /** The reader of manifests written in this schema: made once (its schema parsed, its plan). */
  private static Reader readerOf(String schemaText) throws IOException {
    Reader known = READERS.get(schemaText);
    if (known != null) {
      return known;
    }
    // Parsed as DataFileStream parses a header's schema; resolved against the compiled
    // class's schema as SpecificDatumReader resolves it (the class's data: its record types).
    Schema writtenWith = new Schema.Parser().setValidate(false).setValidateDefaults(false)
        .parse(schemaText);
    SpecificData data = SpecificData.getForClass(RunManifestRecord.class);
    Reader reader = new Reader(new FastReaderBuilder(data).createDatumReader(writtenWith,
        RunManifestRecord.getClassSchema()), writtenWith);
    if (READERS.size() < MAX_SCHEMAS) {
      READERS.putIfAbsent(schemaText, reader);
    }
    return reader;
  }
}
