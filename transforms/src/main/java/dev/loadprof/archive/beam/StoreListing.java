package dev.loadprof.archive.beam;

import java.io.IOException;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * Listing a glob of a store in as few requests as its listing takes. Beam's S3 filesystem
 * follows every match of a glob with a HEAD of each object found (for its content encoding), so
 * listing N objects costs N + N/1000 requests; a store module can list them from the listing
 * alone (names, sizes, dates), which is all an archive's listing needs. Schemes without one use
 * {@link FileSystems#match}.
 */
public interface StoreListing {
  /** The schemes this listing serves ("s3"). */
  Set<String> schemes();

  /** The files matching {@code glob} (Beam's glob: '*' within a path segment, '**' across). */
  List<MatchResult.Metadata> match(String glob) throws IOException;

  /** The files matching {@code glob}, none when nothing matches. */
  static List<MatchResult.Metadata> matchGlob(String glob) throws IOException {
    int colon = glob.indexOf("://");
    String scheme = colon < 0 ? "file" : glob.substring(0, colon);
    for (StoreListing l : ServiceLoader.load(StoreListing.class,
        StoreListing.class.getClassLoader())) {
      if (l.schemes().contains(scheme)) {
        return l.match(glob);
      }
    }
    MatchResult result = FileSystems.match(glob, EmptyMatchTreatment.ALLOW);
    return result.status() == MatchResult.Status.OK ? result.metadata() : List.of();
  }
}
