package dev.loadprof.cli;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.ArchiveListing;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import java.io.PrintStream;

/**
 * Archives given to analyze, checked before the job starts, so that a damaged file is a
 * one-line error naming it, not a failed job.
 */
final class ArchiveChecks {
  private ArchiveChecks() {}

  /**
   * Reads every manifest of the archives and checks that every block file they list exists, has
   * the recorded size and starts as an Avro file of blocks. Damage inside a file (caught by the
   * codec's checksums) can only be seen when it is read, in the job; the CLI reports it the same
   * way.
   *
   * <p>Archived runs keep the window and event they were parsed with. When analyze is given
   * another --event, or explicitly another --window, the archive cannot give what the traces
   * would, so that is an error too.
   *
   * @param windowNs the --window given explicitly, in ns, or null when it was not given
   * @return run id to the manifest it comes from, for every archived run
   */
  static Map<String, String> check(List<String> archives, RunSelection selection, String event,
      Long windowNs, PrintStream err) throws UsageException {
    Map<String, String> runs = new LinkedHashMap<>();
    for (String archive : archives) {
      checkFormat(archive);
      List<ArchiveListing.ManifestRef> manifests;
      try {
        ArchiveListing.Listing listing = ArchiveListing.listChecked(archive, selection);
        listing.warnings().forEach(w -> err.println("loadprof: " + w));
        manifests = listing.refs();
      } catch (IOException e) {
        throw new UsageException("cannot read archive " + archive + ": " + e.getMessage());
      } catch (IllegalArgumentException | ArchiveCorruptException e) {
        throw new UsageException(e.getMessage());
      }
      sayOnceIfUnchecked(archive, err);
      int selected = 0;
      for (ArchiveListing.ManifestRef ref : manifests) {
        try {
          ResourceId file = FileSystems.matchNewResource(ref.path(), false);
          if (!ArchiveLayout.exists(file)) {
            continue; // an index entry of a job that never committed
          }
          RunManifestRecord manifest = ArchiveFiles.readManifest(file);
          if (!ref.accepts(manifest)) {
            continue; // a stale index entry
          }
          try {
            ArchiveConversions.fromManifest(manifest);
          } catch (IllegalArgumentException e) {
            throw new ArchiveCorruptException(ref.path(), e.getMessage(), e);
          }
          checkParsedAsRequested(manifest, ref.path(), event, windowNs);
          for (BlockFileRecord f : manifest.getBlockFiles()) {
            ResourceId blockFile = ArchiveLayout.resolve(archive, f.getPath());
            ArchiveFiles.checkSize(blockFile, f.getSizeBytes());
            checkFirstBlock(blockFile, BlockFileRef.of(blockFile.toString(), f.getSizeBytes(),
                manifest, ref.path()));
          }
          String previous = runs.put(manifest.getRunId(), ref.path());
          if (previous != null) {
            throw new UsageException("two archives hold the run id '" + manifest.getRunId()
                + "': " + previous + " and " + ref.path() + "; give only one");
          }
          selected++;
        } catch (ArchiveCorruptException e) {
          throw new UsageException(e.getMessage());
        }
      }
      if (selected == 0) {
        throw new UsageException(selection.isAll()
            ? archive + " is an archive without runs; add traces with loadprof archive -o "
                + archive + " TRACE..."
            : archive + " has no runs of " + selection + "; leave out --nights/--hosts to"
                + " read them all");
      }
    }
    return runs;
  }

  /** Archives written before checksums still read; said once per archive. */
  private static void sayOnceIfUnchecked(String archive, PrintStream err) {
    int version;
    try {
      version = ArchiveLayout.formatVersion(archive);
    } catch (IOException e) {
      return; // checkFormat said it
    }
    if (version < ArchiveFiles.FIRST_CHECKSUMMED_FORMAT) {
      err.println("loadprof: " + archive + " is an archive of format " + version + ", written"
          + " before archives had checksums: damage to the manifests and index entries of its"
          + " older runs may go unnoticed. To have them checked, archive the traces again into a"
          + " new archive (loadprof archive --out NEW TRACE...)");
    }
  }

  private static void checkParsedAsRequested(RunManifestRecord manifest, String file,
      String event, Long windowNs) throws UsageException {
    if (event != null && !event.equals(manifest.getSamplingEvent())) {
      throw new UsageException(file + ": run " + manifest.getRunId() + " was archived with the"
          + " sampling event " + manifest.getSamplingEvent() + ", not " + event
          + "; archive it again with --event " + event);
    }
    if (windowNs != null && windowNs != manifest.getWindowNs()) {
      throw new UsageException(file + ": run " + manifest.getRunId() + " was archived with"
          + " --window " + manifest.getWindowNs() / 1_000_000 + "ms; archive it again with"
          + " this --window, or leave --window out");
    }
  }

  /**
   * Fails unless the file starts with an Avro header whose schema is EventBlockRecord, and its
   * first block is of the run its manifest describes (the job checks every block).
   */
  private static void checkFirstBlock(ResourceId file, BlockFileRef ref) {
    try (InputStream in = Channels.newInputStream(FileSystems.open(file));
        DataFileStream<Object> avro = new DataFileStream<>(in, new GenericDatumReader<>())) {
      String schema = avro.getSchema().getFullName();
      if (!schema.equals(EventBlockRecord.getClassSchema().getFullName())) {
        throw new ArchiveCorruptException(file.toString(), "holds " + schema
            + " records, not event blocks", null);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof ArchiveCorruptException a) {
        throw a;
      }
      throw new ArchiveCorruptException(file.toString(), "corrupt or truncated Avro file ("
          + e + ")", e);
    }
    try (InputStream in = Channels.newInputStream(FileSystems.open(file));
        DataFileStream<EventBlockRecord> blocks =
            new DataFileStream<>(in, new SpecificDatumReader<>(EventBlockRecord.class))) {
      if (blocks.hasNext()) {
        ArchiveFiles.checkAgainstManifest(ref, blocks.next());
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof ArchiveCorruptException a) {
        throw a;
      }
      throw new ArchiveCorruptException(file.toString(), "corrupt or truncated Avro file ("
          + e + ")", e);
    }
  }

  /**
   * Fails when the archive's marker states a format this loadprof does not know: its layout
   * and records may mean something else, so nothing of it is read.
   */
  static void checkFormat(String archive) throws UsageException {
    int version;
    try {
      version = ArchiveLayout.formatVersion(archive);
    } catch (IOException e) {
      throw new UsageException("cannot read " + ArchiveLayout.marker(archive) + ": "
          + e.getMessage());
    }
    if (version < ArchiveConversions.OLDEST_READABLE_FORMAT
        || version > ArchiveConversions.FORMAT_VERSION) {
      throw new UsageException(ArchiveLayout.marker(archive) + ": archive format version "
          + version + " is not supported (this loadprof reads versions "
          + ArchiveConversions.OLDEST_READABLE_FORMAT + " to " + ArchiveConversions.FORMAT_VERSION
          + "); read it with the loadprof that wrote it, or archive the traces again");
    }
  }
}
