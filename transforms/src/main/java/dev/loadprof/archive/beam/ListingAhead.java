package dev.loadprof.archive.beam;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * A glob listed on a thread of its own while the caller lists another: on a store a listing is
 * a request per 1,000 names, one after the other, and a whole archive's index and runs/ were
 * two such chains in a row (a nightly of 3,000 runs on S3: 7 pages, ~0.9 s, before its job
 * started). Taken as {@link ArchiveListing}'s own listings are: from what this thread's client
 * listed, when the job lists what its client did ({@link ClientListings}), and kept for the
 * job when the client lists it (on the caller's thread, which {@link ClientListings} keeps).
 */
final class ListingAhead {
  private final String glob;
  private final boolean forJob;
  private final List<MatchResult.Metadata> taken;
  private final Thread thread;
  private volatile List<MatchResult.Metadata> found;
  private volatile IOException failed;

  private ListingAhead(String glob, boolean forJob) {
    this.glob = glob;
    this.forJob = forJob;
    this.taken = forJob ? ClientListings.takeForJob(glob) : null;
    if (taken != null) {
      thread = null;
      return;
    }
    thread = new Thread(() -> {
      try {
        found = StoreListing.matchGlob(glob);
      } catch (IOException e) {
        failed = e;
      }
    }, "loadprof-listing");
    thread.setDaemon(true); // a command that fails before it asks does not wait for it
    thread.start();
  }

  /** Starts listing {@code glob} (for the job: {@code forJob}). */
  static ListingAhead start(String glob, boolean forJob) {
    return new ListingAhead(glob, forJob);
  }

  /** What is listed, once it is; what listing it threw is thrown here. */
  List<MatchResult.Metadata> get() throws IOException {
    if (taken != null) {
      return taken;
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("stopped while listing " + glob);
    }
    if (failed != null) {
      throw failed;
    }
    if (!forJob) {
      ClientListings.listedByClient(glob, found);
    }
    return found;
  }
}
