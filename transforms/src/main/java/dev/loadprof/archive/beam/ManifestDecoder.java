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
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Decodes a manifest file that is what loadprof writes (one Avro container, no codec, one block
 * of one manifest) with the schema it was written in parsed once per distinct schema, not once
 * per file: Avro's DataFileStream parses the header's schema (JSON) and builds a new resolver
 * for every file, half the CPU of decoding a small manifest, and a nightly decodes thousands.
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
  private static final Map<String, SpecificDatumReader<RunManifestRecord>> READERS =
      new ConcurrentHashMap<>();

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
      SpecificDatumReader<RunManifestRecord> reader = readerOf(
          new String(schemaText, StandardCharsets.UTF_8));
      BinaryDecoder datum = DecoderFactory.get().binaryDecoder(bytes, start, (int) size, null);
      RunManifestRecord manifest = reader.read(null, datum);
      if (!datum.isEnd()) {
        return null;
      }
      return new Decoded(manifest, reader.getSchema(), meta);
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

  /**
   * The reader of manifests written in this schema: made once (its schema parsed, its resolver
   * built on first use on each thread; a datum reader may be used by many threads at once).
   */
  private static SpecificDatumReader<RunManifestRecord> readerOf(String schemaText) {
    SpecificDatumReader<RunManifestRecord> known = READERS.get(schemaText);
    if (known != null) {
      return known;
    }
    SpecificDatumReader<RunManifestRecord> reader =
        new SpecificDatumReader<>(RunManifestRecord.class);
    // Parsed as DataFileStream parses a header's schema.
    reader.setSchema(new Schema.Parser().setValidate(false).setValidateDefaults(false)
        .parse(schemaText));
    if (READERS.size() < MAX_SCHEMAS) {
      READERS.putIfAbsent(schemaText, reader);
    }
    return reader;
  }
}
