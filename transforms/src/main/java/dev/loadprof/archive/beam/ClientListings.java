package dev.loadprof.archive.beam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * What a command's client listed of its archives, kept on the command's thread for its job when
 * that runs in the same JVM ({@link ReadArchive#readRunsLocally}): the job then lists from the
 * client's names instead of listing the archive again. A whole archive's listing is a request
 * per 1,000 names on a store, and the client had just made them all.
 *
 * <p>The job sees the archive as the client checked it: the index and runs/ as the client
 * listed them (at once, for a whole archive: a run whose entry is listed and whose manifest is
 * not, committed meanwhile, has its manifest looked for), a run committed since then is in
 * neither (as if the command had started a moment earlier). Each listing is taken once: a
 * second listing of the same names in the job lists the store again. A job on a Beam runner
 * lists on its own threads, which have nothing kept, and the command's end forgets it all.
 */
public final class ClientListings {
  private static final ThreadLocal<Map<String, List<MatchResult.Metadata>>> LISTED =
      new ThreadLocal<>();

  private ClientListings() {}

  /** A command starts on this thread: what its client lists is kept for its job. */
  public static void begin() {
    LISTED.set(new HashMap<>());
  }

  /** The command ended: nothing it listed is kept. */
  public static void end() {
    LISTED.remove();
  }

  /** The client listed {@code glob}: kept (the newest listing of it) if a command has begun. */
  static void listedByClient(String glob, List<MatchResult.Metadata> found) {
    Map<String, List<MatchResult.Metadata>> listed = LISTED.get();
    if (listed != null) {
      listed.put(glob, List.copyOf(found));
    }
  }

  /** The client's listing of {@code glob}, taken (a second call lists again), or null. */
  static List<MatchResult.Metadata> takeForJob(String glob) {
    Map<String, List<MatchResult.Metadata>> listed = LISTED.get();
    return listed == null ? null : listed.remove(glob);
  }
}
