package dev.loadprof.archive.beam;

import dev.loadprof.archive.RunSelection;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * Lists the runs of an archive that a {@link RunSelection} asks for. All runs: one listing of
 * runs/. Some nights or hosts: one listing per night of index/night=N/ (or, hosts only, of
 * index/), each entry pointing at runs/RUN_ID.avro; blocks/ is never listed.
 */
public final class ArchiveListing {
  private ArchiveListing() {}

  /**
   * A manifest to read, and the job whose index entry led to it ("" when it was listed from
   * runs/ directly). An entry of another job than the manifest's is stale and not read.
   */
  public record ManifestRef(String path, String indexedJobId) implements Serializable {
    public boolean accepts(RunManifestRecord manifest) {
      return indexedJobId.isEmpty() || indexedJobId.equals(manifest.getJobId());
    }
  }

  /**
   * @throws IllegalArgumentException with a message for the user when the archive is of a format
   *     without partitions and a selection was asked for
   */
  public static List<ManifestRef> list(String archive, RunSelection selection)
      throws IOException {
    List<ManifestRef> refs = new ArrayList<>();
    if (selection.isAll()) {
      for (MatchResult.Metadata m : match(ArchiveLayout.manifestGlob(archive))) {
        refs.add(new ManifestRef(m.resourceId().toString(), ""));
      }
      return refs;
    }
    int version = ArchiveLayout.formatVersion(archive);
    if (version < 2) {
      throw new IllegalArgumentException(archive + " is an archive of format " + version
          + ", which has no night/host partitions; analyze it whole (without --nights and"
          + " --hosts), or archive its traces again into a new archive with loadprof archive"
          + " --out NEW [--night YYYY-MM-DD] TRACE...");
    }
    List<String> nights = selection.nights().isEmpty() ? List.of("*") : selection.nights();
    List<String> hosts = selection.hosts().isEmpty() ? List.of("*") : selection.hosts();
    for (String night : nights) {
      for (String host : hosts) {
        String glob = ArchiveLayout.resolve(archive, ArchiveLayout.indexPath(night, host) + "*")
            .toString();
        for (MatchResult.Metadata m : match(glob)) {
          String name = m.resourceId().getFilename();
          int at = name.lastIndexOf(ArchiveLayout.JOB_SEPARATOR);
          if (at <= 0) {
            continue; // not an index entry
          }
          refs.add(new ManifestRef(ArchiveLayout.manifest(archive, name.substring(0, at))
              .toString(), name.substring(at + 1)));
        }
      }
    }
    return refs;
  }

  private static List<MatchResult.Metadata> match(String glob) throws IOException {
    MatchResult result = FileSystems.match(glob, EmptyMatchTreatment.ALLOW);
    return result.status() == MatchResult.Status.OK ? result.metadata() : List.of();
  }
}
