package dev.loadprof.pipelines;

import dev.loadprof.archive.beam.NightFigures;
import dev.loadprof.archive.beam.ReadArchive;
import dev.loadprof.archive.beam.RunFigures;
import dev.loadprof.report.RunByRunWriter;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A run-by-run writer's kept parts of archived runs (nightly's figures), stored beside each run
 * ({@link RunFigures}) by the first job that computes them and read back by the next ones
 * instead of the run's blocks. Only for jobs whose filters leave the figures as stored: no
 * --pid, --comm, --load, --tid, --cpu or --time (they change what is kept of a run).
 *
 * @param <K> what the writer keeps of a run
 */
final class StoredKept<K> {
  private final RunByRunWriter<K> writer;
  private final String kind;
  private final List<K> kept;
  /** Runs read from their blocks, by id: their figures are stored once computed. */
  private final Map<String, ReadArchive.LocalRun> toStore = new ConcurrentHashMap<>();
  private final AtomicInteger read = new AtomicInteger();
  private final AtomicInteger computed = new AtomicInteger();
  private final AtomicInteger stored = new AtomicInteger();
  private final AtomicInteger readFromNights = new AtomicInteger();
  private final List<String> unreadable = new CopyOnWriteArrayList<>();
  /**
   * Computed figures are stored on threads of their own: on a store each is a PUT (10 ms and
   * more), which the joining threads waited for, one after the other (a nightly on S3 stored
   * 100 runs' figures in ~3 s of its 16). Idle threads end, so a job that fails leaves none.
   */
  private final ThreadPoolExecutor storing =
      new ThreadPoolExecutor(STORING_THREADS, STORING_THREADS, 5,
          TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
          r -> {
            Thread t = new Thread(r, "loadprof-store-figures");
            t.setDaemon(true);
            return t;
          });
  private static final int STORING_THREADS = 8;
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      StoredKept.class);

  private StoredKept(RunByRunWriter<K> writer, String kind, List<K> kept) {
    this.writer = writer;
    this.kind = kind;
    this.kept = kept;
    storing.allowCoreThreadTimeOut(true);
  }

  /** For this job, or null when its writer stores nothing or its filters change the figures. */
  static <K> StoredKept<K> of(RunByRunWriter<K> writer, AnalyzeSettings s, List<K> kept) {
    String kind = kind(writer, s);
    return kind.isEmpty() ? null : new StoredKept<>(writer, kind, kept);
  }

  /** The kind of figures a job with this writer and these settings stores and reads, or "". */
  static String kind(dev.loadprof.report.AnalysisWriter writer, AnalyzeSettings s) {
    boolean unfiltered = s.pids() == null && s.comm() == null && s.load() == null
        && s.tids() == null && s.cpus() == null && s.time() == null;
    return writer instanceof RunByRunWriter<?> byRun && unfiltered
        ? byRun.storedKeptVersion() : "";
  }

  /**
   * The run's stored figures as read (on any thread, ahead of {@link #taken}), or null when it
   * has none or needs none: a run with no blocks (a run counted as another) is computed.
   */
  RunFigures.Stored lookUp(ReadArchive.LocalRun run) {
    if (run.files().isEmpty()) {
      return null;
    }
    NightFigures.Member member = run.member();
    byte[] packed = member == null ? null : member.packedFigures();
    if (packed != null) {
      readFromNights.incrementAndGet();
      return RunFigures.decode(run.blocks().figures(kind), packed, true); // checked whole
    }
    org.apache.beam.sdk.io.fs.ResourceId file = run.blocks().figures(kind);
    if (member != null && !member.mayHoldFigures(file)) {
      return null; // its night's stored figures were listed, and its are not among them
    }
    RunFigures.Stored found = RunFigures.read(file);
    if (member != null && found != null && found.problem() == null) {
      member.figuresRead(found.bytes());
    }
    return found;
  }

  /** The kind of figures stored and read. */
  String kind() {
    return kind;
  }

  /**
   * True when the run's kept part was read from the archive ({@code found}, from {@link
   * #lookUp}) and added to the kept parts: its blocks are then not read. Otherwise the part
   * computed from them is stored ({@link #computed}).
   */
  boolean taken(ReadArchive.LocalRun run, RunFigures.Stored found) {
    if (run.files().isEmpty()) {
      return false; // no blocks to save reading (a run counted as another): computed
    }
    if (found != null && found.problem() == null) {
      @SuppressWarnings("unchecked")
      K part = (K) found.figures();
      kept.add(writer.asReadToday(part, run.info()));
      read.incrementAndGet();
      return true;
    }
    if (found != null) {
      unreadable.add(found.problem());
    }
    toStore.put(run.info().runId, run);
    return false;
  }

  /**
   * A run's part as computed: stored for the next jobs when it is an archived run's, on a
   * storing thread ({@link #gatherNights} waits for them). The part is not changed after.
   */
  void computed(String runId, K part) {
    ReadArchive.LocalRun run = toStore.remove(runId);
    if (run != null) {
      computed.incrementAndGet();
      // execute, not submit: what a store throws (it says its own failures, so only an
      // error such as running out of heap) reaches the CLI's handler of threads' failures.
      storing.execute(() -> {
        byte[] bytes = RunFigures.store(run.blocks().figures(kind), (Serializable) part, null);
        if (bytes != null) {
          stored.incrementAndGet();
          if (run.member() != null) {
            run.member().figuresRead(bytes); // for its night's file
          }
        }
      });
    }
  }

  /**
   * Once every run is joined: waits for their figures to be stored, then writes the night
   * figures files its runs had none of ({@link NightFigures}), for the next jobs to read a
   * night index's runs in one request.
   */
  void gatherNights(List<ReadArchive.LocalRun> runs) {
    storing.shutdown();
    try {
      storing.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return; // stopped: no night's file is written
    }
    int written = NightFigures.writeMissing(runs);
    // Not on the console, which is the same as a job on Beam's (LocalJudgedJobsTest).
    LOG.debug("figures of {} runs read from night figures files, {} such files written",
        readFromNights.get(), written);
  }

  /** The console's line: how many archived runs' figures were read, how many computed. */
  String note() {
    return read.get() + computed.get() == 0 ? "" : "figures of " + read.get()
        + " archived runs read from the archive, " + computed.get() + " computed from their"
        + " blocks (" + stored.get() + " stored for the next nights)"
        + (unreadable.isEmpty() ? "" : "; " + String.join("; ", unreadable));
  }
}
