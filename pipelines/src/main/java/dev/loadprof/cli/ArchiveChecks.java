package dev.loadprof.cli;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.ArchiveListing;
import dev.loadprof.archive.beam.RunChecks;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
      int version = checkFormat(archive);
      ArchiveListing.Listing listing;
      try {
        // The night indexes hold nothing else the client checks: without --event or --window
        // none is read here, and a night costs its index's listing (the job reads them).
        listing = ArchiveListing.listChecked(archive, version, selection,
            event != null || windowNs != null);
        listing.warnings().forEach(w -> err.println("loadprof: " + w));
      } catch (IOException e) {
        throw new UsageException("cannot read archive " + archive + ": " + e.getMessage());
      } catch (IllegalArgumentException | ArchiveCorruptException e) {
        throw new UsageException(e.getMessage());
      }
      sayOnceIfUnchecked(archive, version, err);
      sayOnceIfUnindexed(archive, listing, err);
      int selected = 0;
      for (ArchiveListing.ManifestRef ref : listing.refs()) {
        String runId;
        try {
          runId = ref.indexed() != null ? indexed(ref, event, windowNs)
              : ref.deferred() ? ref.runId() // checked by the job's workers
              : checkedHere(archive, ref, event, windowNs);
        } catch (ArchiveCorruptException e) {
          throw new UsageException(e.getMessage());
        }
        if (runId == null) {
          continue;
        }
        String previous = runs.put(runId, ref.path());
        if (previous != null) {
          throw new UsageException("two archives hold the run id '" + runId
              + "': " + previous + " and " + ref.path() + "; give only one");
        }
        selected++;
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

  /**
   * A run its night index lists: checked against the request from the index alone; its own
   * files are checked in the job's workers (RunChecks), with the same messages.
   */
  private static String indexed(ArchiveListing.ManifestRef ref, String event, Long windowNs)
      throws UsageException {
    NightIndex.Run line = ref.indexed();
    checkParsedAsRequested(line.runId(), line.samplingEvent(), line.windowNs(), ref.path(),
        event, windowNs);
    return line.runId();
  }

  /** A run no night index lists, checked here as before night indexes: its id, or null. */
  private static String checkedHere(String archive, ArchiveListing.ManifestRef ref,
      String event, Long windowNs) throws UsageException {
    RunManifestRecord manifest = RunChecks.manifest(archive, ref);
    if (manifest == null) {
      return null; // an index entry of a job that never committed, or a stale one
    }
    RunChecks.converted(ref.path(), manifest);
    checkParsedAsRequested(manifest.getRunId(), manifest.getSamplingEvent(),
        manifest.getWindowNs(), ref.path(), event, windowNs);
    RunChecks.checkBlockFiles(archive, ref.path(), manifest);
    return manifest.getRunId();
  }

  /**
   * Runs no night index lists are checked one by one from here, several requests each: said
   * once per archive, with how to have them indexed.
   */
  private static void sayOnceIfUnindexed(String archive, ArchiveListing.Listing listing,
      PrintStream err) {
    if (listing.unindexed() > 0) {
      err.println("loadprof: " + listing.unindexed() + " of " + listing.refs().size()
          + " selected runs of " + archive + " are in no night index (archived by an older"
          + " loadprof, or by a job that did not finish): they are checked one by one before"
          + " the job; archiving their traces again (loadprof archive --out " + archive
          + " TRACE...) indexes them");
    }
  }

  /** Archives written before checksums still read; said once per archive. */
  private static void sayOnceIfUnchecked(String archive, int version, PrintStream err) {
    if (version < ArchiveFiles.FIRST_CHECKSUMMED_FORMAT) {
      err.println("loadprof: " + archive + " is an archive of format " + version + ", written"
          + " before archives had checksums: damage to the manifests and index entries of its"
          + " older runs may go unnoticed. To have them checked, archive the traces again into a"
          + " new archive (loadprof archive --out NEW TRACE...)");
    }
  }

  private static void checkParsedAsRequested(String runId, String samplingEvent,
      long archivedWindowNs, String file, String event, Long windowNs) throws UsageException {
    if (event != null && !event.equals(samplingEvent)) {
      throw new UsageException(file + ": run " + runId + " was archived with the"
          + " sampling event " + samplingEvent + ", not " + event
          + "; archive it again with --event " + event);
    }
    if (windowNs != null && windowNs != archivedWindowNs) {
      throw new UsageException(file + ": run " + runId + " was archived with"
          + " --window " + archivedWindowNs / 1_000_000 + "ms; archive it again with"
          + " this --window, or leave --window out");
    }
  }

  /**
   * Fails when the archive's marker states a format this loadprof does not know: its layout
   * and records may mean something else, so nothing of it is read.
   */
  static int checkFormat(String archive) throws UsageException {
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
    return version;
  }
}
