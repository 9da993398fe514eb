package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * The checks of an archived run that need its own files, before its blocks are read: its
 * manifest (its checksum, and the one its night index states), and that every block file it
 * lists is there, of the recorded size, an Avro file of event blocks whose first block is of
 * this run. The client runs them for the runs no night index covers, before the job; for the
 * others the job's workers check the manifest, many at once, and each block file as it is
 * read ({@link ArchiveFiles#readBlocks}), with the same messages (exit code 2).
 */
public final class RunChecks {
  private RunChecks() {}

  /**
   * The manifest of {@code ref}, or null when there is no run to read: an index entry of a job
   * that never committed, or a stale one (another job's manifest is in place).
   *
   * @throws ArchiveCorruptException naming the file and the run, when it is damaged or missing
   */
  public static RunManifestRecord manifest(String archive, ArchiveListing.ManifestRef ref) {
    return manifest(archive, ref, null, null);
  }

  /**
   * The same from the manifest file's bytes as a night's figures file holds them ({@code
   * packed}: checked as the file is; its index entry was read when they were gathered), or,
   * when null, from the file, its bytes then given to {@code read} (unless null).
   */
  static RunManifestRecord manifest(String archive, ArchiveListing.ManifestRef ref,
      byte[] packed, java.util.function.Consumer<byte[]> read) {
    ResourceId file = FileSystems.matchNewResource(ref.path(), false);
    if (packed != null) {
      RunManifestRecord manifest = ArchiveFiles.readManifest(file, packed, true);
      return ref.accepts(manifest) ? manifest : null;
    }
    ref.checkEntry(archive);
    RunManifestRecord manifest;
    try {
      byte[] bytes = null;
      if (read != null) {
        try {
          bytes = StoreListing.read(ref.path());
        } catch (IOException e) {
          // read again below, which says what is wrong as it does for any manifest
        }
      }
      manifest = ArchiveFiles.readManifest(file, bytes); // one request; whether it is there, after
      if (bytes != null) {
        read.accept(bytes);
      }
    } catch (ArchiveCorruptException e) {
      if (ArchiveLayout.exists(file)) {
        throw e;
      }
      // The client did not list runs/ when night indexes covered the selection: a manifest an
      // index entry or a night index leads to and is not there is damage, named here.
      ArchiveCorruptException missing = ref.missing(archive);
      if (missing != null) {
        throw missing;
      }
      return null; // a run listed from runs/, gone since; an empty entry of format 2
    }
    if (!ref.accepts(manifest)) {
      return null; // a stale index entry
    }
    // A manifest that differs from the checksum its night index states was written again
    // since under the same job (by hand: re-checksummed); its own checksum held, so its content
    // is what is read, checked against its blocks as any manifest is.
    return manifest;
  }

  /** The run the manifest converts into; fails naming the manifest when it does not. */
  public static dev.loadprof.model.RunInfo converted(String manifestPath, RunManifestRecord manifest) {
    try {
      return ArchiveConversions.fromManifest(manifest);
    } catch (IllegalArgumentException e) {
      throw new ArchiveCorruptException(manifestPath, e.getMessage(), e);
    }
  }

  /** The manifest's block files are there, of their sizes, and start as its run's blocks. */
  public static void checkBlockFiles(String archive, String manifestPath,
      RunManifestRecord manifest) {
    for (BlockFileRecord f : manifest.getBlockFiles()) {
      ResourceId blockFile = ArchiveLayout.resolve(archive, f.getPath());
      ArchiveFiles.checkSize(blockFile, f.getSizeBytes());
      checkFirstBlock(blockFile, BlockFileRef.of(blockFile.toString(), f.getSizeBytes(),
          manifest, manifestPath));
    }
  }

  /**
   * Fails unless the file starts with an Avro header whose schema is EventBlockRecord, and its
   * first block is of the run its manifest describes (the job checks every block).
   */
  static void checkFirstBlock(ResourceId file, BlockFileRef ref) {
    // One open (on S3 a HEAD and a GET): the writer's schema is in the header, read before any
    // record is resolved against EventBlockRecord.
    try (InputStream in = Channels.newInputStream(FileSystems.open(file));
        DataFileStream<EventBlockRecord> blocks =
            new DataFileStream<>(in, new SpecificDatumReader<>(EventBlockRecord.class))) {
      String schema = blocks.getSchema().getFullName();
      if (!schema.equals(EventBlockRecord.getClassSchema().getFullName())) {
        throw new ArchiveCorruptException(file.toString(), "holds " + schema
            + " records, not event blocks", null);
      }
      if (blocks.hasNext()) {
        ArchiveFiles.checkAgainstManifest(ref, blocks.next());
      }
    } catch (IOException | RuntimeException e) {
      throw corrupt(file, e);
    }
  }

  private static ArchiveCorruptException corrupt(ResourceId file, Exception e) {
    if (e instanceof ArchiveCorruptException a) {
      return a;
    }
    return new ArchiveCorruptException(file.toString(), "corrupt or truncated Avro file ("
        + e + ")", e);
  }
}
