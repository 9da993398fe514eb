package dev.loadprof.archive.beam;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * Listing a glob of a store in as few requests as its listing takes. Beam's S3 filesystem
 * follows every match of a glob with a HEAD of each object found (for its content encoding), so
 * listing N objects costs N + N/1000 requests; a store module can list them from the listing
 * alone (names, sizes, dates), which is all an archive's listing needs. Schemes without one use
 * {@link FileSystems#match}. Small files are read the same way: in one request where the store
 * allows ({@link #readWhole}).
 */
public interface StoreListing {
  /** The schemes this listing serves ("s3"). */
  Set<String> schemes();

  /** The files matching {@code glob} (Beam's glob: '*' within a path segment, '**' across). */
  List<MatchResult.Metadata> match(String glob) throws IOException;

  /**
   * The whole of a small object in one request, or null to leave it to {@link
   * FileSystems#open}: Beam's S3 open asks for the object's length first (a HEAD, then the GET).
   *
   * @throws java.io.FileNotFoundException when there is no such object
   */
  default byte[] readWhole(String path) throws IOException {
    return null;
  }

  /** The files matching {@code glob}, none when nothing matches. */
  static List<MatchResult.Metadata> matchGlob(String glob) throws IOException {
    StoreListing l = of(glob);
    if (l != null) {
      return l.match(glob);
    }
    MatchResult result = FileSystems.match(glob, EmptyMatchTreatment.ALLOW);
    return result.status() == MatchResult.Status.OK ? result.metadata() : List.of();
  }

  /** The bytes of a small file (a marker, an index entry, a night index), in one request. */
  static byte[] read(String path) throws IOException {
    StoreListing l = of(path);
    byte[] bytes = l == null ? null : l.readWhole(path);
    if (bytes != null) {
      return bytes;
    }
    try (InputStream in = Channels.newInputStream(FileSystems.open(
        FileSystems.matchNewResource(path, false)))) {
      return in.readAllBytes();
    }
  }

  /** The listing of the store {@code path} is on, or null when it has none. */
  private static StoreListing of(String path) {
    int colon = path.indexOf("://");
    return StoreModules.listing(colon < 0 ? "file" : path.substring(0, colon));
  }
}
