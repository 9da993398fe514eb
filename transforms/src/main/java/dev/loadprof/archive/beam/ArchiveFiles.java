package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.model.EventBlock;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import dev.loadprof.archive.IndexEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * Reads and writes the Avro files of an archive, streaming: a block file is decoded one record at
 * a time, so memory is bounded by one block whatever the size of the file. Every failure to read
 * names the file ({@link ArchiveCorruptException}).
 */
public final class ArchiveFiles {
  private ArchiveFiles() {}

  /** Writes one manifest into {@code file} (not atomically; callers write a temp and rename). */
  public static void writeManifest(RunManifestRecord manifest, ResourceId file)
      throws IOException {
    try (OutputStream out = Channels.newOutputStream(
        FileSystems.create(file, "application/avro"))) {
      writeManifest(manifest, out);
    }
  }

  /**
   * Writes one manifest as an Avro file into {@code out}, and closes it. The file's metadata
   * holds the SHA-256 of the manifest's canonical encoding ({@link #CHECKSUM_META}).
   */
  public static void writeManifest(RunManifestRecord manifest, OutputStream out)
      throws IOException {
    try (DataFileWriter<RunManifestRecord> writer =
        new DataFileWriter<>(new SpecificDatumWriter<>(RunManifestRecord.class))) {
      writer.setMeta(CHECKSUM_META, checksum(manifest));
      writer.create(RunManifestRecord.getClassSchema(), out);
      writer.append(manifest);
    }
  }

  /** The manifest file's metadata key of its checksum. */
  public static final String CHECKSUM_META = "loadprof.sha256";
  /** Manifests of this format on carry a checksum; older ones are read unchecked. */
  public static final int FIRST_CHECKSUMMED_FORMAT = 3;

  /**
   * SHA-256 of the manifest's Avro binary encoding with its maps in key order, so that it does
   * not depend on the order a decoder fills them in.
   */
  static String checksum(RunManifestRecord manifest) throws IOException {
    return checksum(manifest, RunManifestRecord.getClassSchema());
  }

  /**
   * The same in the schema the manifest was written with: a manifest of an older schema, read
   * with a field added since (filled with its default), must check as it was written, or every
   * archive would read as damaged after the schema grew.
   */
  static String checksum(RunManifestRecord manifest, Schema writtenWith) throws IOException {
    GenericData.Record c = new GenericData.Record(writtenWith);
    for (Schema.Field f : writtenWith.getFields()) {
      Object value = manifest.get(f.name());
      c.put(f.pos(), value instanceof Map<?, ?> map ? new TreeMap<>(map) : value);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new SpecificDatumWriter<GenericRecord>(writtenWith).write(c, encoder);
    encoder.flush();
    return IndexEntry.sha256Hex(bytes.toByteArray());
  }

  /**
   * Reads the single manifest of a runs/RUN_ID.avro file and verifies its checksum (manifests of
   * format 3 on must have one). Any failure names the run and the command that repairs it.
   */
  public static RunManifestRecord readManifest(ResourceId file) {
    return readManifest(file, null);
  }

  /**
   * The same from the file's bytes as read already ({@code bytes}; null to read them), checked
   * as the file is.
   */
  public static RunManifestRecord readManifest(ResourceId file, byte[] bytes) {
    return readManifest(file, bytes, false);
  }

  /**
   * The same; when {@code bytesChecked}, the bytes were checked by a checksum over them
   * already (a night figures file's: {@link NightFigures}), and the manifest's own checksum is
   * not computed again (an Avro encoding and a SHA-256 a manifest), only required.
   */
  static RunManifestRecord readManifest(ResourceId file, byte[] bytes, boolean bytesChecked) {
    String name = file.toString();
    String runId = file.getFilename() == null ? "?"
        : file.getFilename().replaceFirst("\\.avro$", "");
    int runs = name.lastIndexOf("/" + ArchiveLayout.RUNS_DIR + "/");
    String archive = runs < 0 ? name : name.substring(0, runs);
    // Read whole in one request (on S3 a GET, where Beam's open adds a HEAD): a manifest is small.
    try {
      byte[] data = bytes != null ? bytes : StoreListing.read(name);
      ManifestDecoder.Decoded simple = ManifestDecoder.decode(data);
      if (simple != null) {
        return checked(simple.manifest(), simple.metaString(CHECKSUM_META),
            simple.writtenWith(), bytesChecked, archive, runId, name);
      }
      try (InputStream in = new java.io.ByteArrayInputStream(data);
          DataFileStream<RunManifestRecord> records =
              new DataFileStream<>(in, new SpecificDatumReader<>(RunManifestRecord.class))) {
        if (!records.hasNext()) {
          throw ArchiveCorruptException.ofRun(archive, runId, null, name,
              "manifest file holds no manifest", null);
        }
        RunManifestRecord manifest = records.next();
        if (records.hasNext()) {
          throw ArchiveCorruptException.ofRun(archive, runId, null, name,
              "manifest file holds more than one manifest", null);
        }
        return checked(manifest, records.getMetaString(CHECKSUM_META), records.getSchema(),
            bytesChecked, archive, runId, name);
      }
    } catch (ArchiveCorruptException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw ArchiveCorruptException.ofRun(archive, runId, null, name,
          "corrupt, truncated or missing Avro file (" + e + ")", e);
    }
  }

  /** The manifest, once its checksum ({@code stated}, from its file) is found to match. */
  private static RunManifestRecord checked(RunManifestRecord manifest, String stated,
      Schema writtenWith, boolean bytesChecked, String archive, String runId, String name)
      throws IOException {
    if (stated == null && manifest.getFormatVersion() >= FIRST_CHECKSUMMED_FORMAT) {
      throw ArchiveCorruptException.ofRun(archive, runId, null, name,
          "the manifest has lost its checksum (damaged)", null);
    }
    if (stated != null && !bytesChecked && !stated.equals(checksum(manifest, writtenWith))) {
      throw ArchiveCorruptException.ofRun(archive, runId, null, name,
          "checksum mismatch: the manifest is damaged", null);
    }
    return manifest;
  }

  /** True when the manifest file carries no checksum: written before manifests had one. */
  public static boolean unchecked(ResourceId file) {
    try (InputStream in = Channels.newInputStream(FileSystems.open(file));
        DataFileStream<RunManifestRecord> records =
            new DataFileStream<>(in, new SpecificDatumReader<>(RunManifestRecord.class))) {
      return records.getMetaString(CHECKSUM_META) == null;
    } catch (IOException | RuntimeException e) {
      return false; // readManifest says what is wrong
    }
  }

  /**
   * Streams the blocks of one block file to {@code out}, after checking the file still has the
   * size its manifest recorded (Avro cannot tell a file cut at a block boundary from a whole one),
   * and checking each block against its manifest ({@link BlockFileRef#disagreement}). Only
   * failures to read or decode, and such disagreements, count as corruption; whatever {@code out}
   * throws passes on.
   */
  public static long readBlocks(BlockFileRef ref, Consumer<EventBlock> out) {
    return readBlocks(ref, null, out);
  }

  /**
   * The same from the file's bytes when they were read already ({@code bytes}, or null to open
   * the file): checked against the manifest's size as the file would be.
   */
  public static long readBlocks(BlockFileRef ref, byte[] bytes, Consumer<EventBlock> out) {
    ResourceId file = FileSystems.matchNewResource(ref.path(), false);
    String name = file.toString();
    if (bytes != null && bytes.length != ref.sizeBytes()) {
      throw new ArchiveCorruptException(name, "corrupt or truncated Avro file (" + bytes.length
          + " bytes, the manifest says " + ref.sizeBytes() + ")", null);
    }
    long count = 0;
    // The size comes from the opened channel, not from a match first: on S3 opening already
    // asks the store for the object's length (a HEAD), and a match is one more request per file.
    try (InputStream in = bytes != null ? new java.io.ByteArrayInputStream(bytes)
            : Channels.newInputStream(openChecked(file, ref.sizeBytes()));
        DataFileStream<EventBlockRecord> records =
            new DataFileStream<>(in, new SpecificDatumReader<>(EventBlockRecord.class))) {
      String schema = records.getSchema().getFullName();
      if (!schema.equals(EventBlockRecord.getClassSchema().getFullName())) {
        throw new ArchiveCorruptException(name, "holds " + schema + " records, not event blocks",
            null);
      }
      EventBlockRecord reuse = null;
      while (records.hasNext()) {
        reuse = records.next(reuse);
        checkAgainstManifest(ref, reuse);
        EventBlock block = ArchiveConversions.fromRecord(reuse);
        block.threadLane = ref.threadLanes(); // not stored per block: the manifest says it
        try {
          out.accept(block);
        } catch (RuntimeException e) {
          throw new ConsumerFailure(e);
        }
        count++;
      }
    } catch (ConsumerFailure e) {
      throw e.getCause();
    } catch (ArchiveCorruptException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw corrupt(name, e);
    }
    return count;
  }

  /** Fails, naming the file, when a block cannot be of the run its manifest describes. */
  public static void checkAgainstManifest(BlockFileRef ref, EventBlockRecord block) {
    String why = ref.disagreement(block);
    if (why != null) {
      throw new ArchiveCorruptException(ref.path(), why, null);
    }
  }

  /** Carries an exception of the consumer past the corruption handler. */
  private static final class ConsumerFailure extends RuntimeException {
    ConsumerFailure(RuntimeException cause) {
      super(cause);
    }

    @Override
    public synchronized RuntimeException getCause() {
      return (RuntimeException) super.getCause();
    }
  }

  /**
   * Opens a block file after checking it exists and has the recorded size, the same checks and
   * messages as {@link #checkSize}, in the requests of the open alone.
   */
  static ReadableByteChannel openChecked(ResourceId file, long expectedSize) {
    ReadableByteChannel opened;
    long size;
    try {
      opened = FileSystems.open(file);
    } catch (IOException | RuntimeException e) {
      throw new ArchiveCorruptException(file.toString(), "block file is missing", e);
    }
    if (!(opened instanceof SeekableByteChannel channel)) {
      checkSize(file, expectedSize); // a filesystem whose channels do not know their size
      return opened;
    }
    try {
      size = channel.size();
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      throw corrupt(file.toString(), e);
    }
    if (size != expectedSize) {
      closeQuietly(channel);
      throw new ArchiveCorruptException(file.toString(), "corrupt or truncated Avro file ("
          + size + " bytes, the manifest says " + expectedSize + ")", null);
    }
    return channel;
  }

  private static void closeQuietly(SeekableByteChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // failing already
    }
  }

  /** Checks what can be checked without decoding: the file exists and has the recorded size. */
  public static MatchResult.Metadata checkSize(ResourceId file, long expectedSize) {
    MatchResult.Metadata meta;
    try {
      meta = FileSystems.matchSingleFileSpec(file.toString());
    } catch (IOException | RuntimeException e) {
      throw new ArchiveCorruptException(file.toString(), "block file is missing", e);
    }
    if (meta.sizeBytes() != expectedSize) {
      throw new ArchiveCorruptException(file.toString(), "corrupt or truncated Avro file ("
          + meta.sizeBytes() + " bytes, the manifest says " + expectedSize + ")", null);
    }
    return meta;
  }

  static ArchiveCorruptException corrupt(String file, Throwable e) {
    return new ArchiveCorruptException(file, "corrupt or truncated Avro file (" + e + ")", e);
  }
}
