package dev.loadprof.pipelines;

import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.OrderedPrefetch;
import dev.loadprof.archive.beam.BlockFilesAhead;
import dev.loadprof.archive.beam.ReadArchive;
import dev.loadprof.archive.beam.RunFigures;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.TraceRuns;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.BadInput;
import dev.loadprof.model.RunInfo;
import dev.loadprof.progress.JobProgress;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisAssembler;
import dev.loadprof.report.AnalysisWriter;
import dev.loadprof.report.Filters;
import dev.loadprof.report.RunByRunWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * analyze's steps ({@link AnalyzePipeline}) run in this JVM without a Beam runner, for analyze,
 * compare and nightly alike (cli.JobPlacement): the same cores, called in the same order per
 * trace, per (run, window) and per (run, process), with the same outputs. For traces read on
 * this machine by the default runner, where Beam's
 * DirectRunner cost several times the analysis itself (it re-encodes each element to check
 * it, and polls its watermarks on a core of its own while a trace is read: bench/RESULTS.md
 * section 18). Each trace's text is parsed on all cores; each window is joined on a thread of
 * its own as soon as the trace says it is complete ({@link WindowJoiner}), so memory is bounded
 * by the windows still open, not by the trace.
 */
public final class LocalAnalysis {
  /** Jobs started here in this JVM: tests tell by it where a command ran its job. */
  private static final AtomicLong JOBS = new AtomicLong();
  /** What the last job on this thread said of its runs' stored figures ("" for none). */
  private static final ThreadLocal<String> FIGURES_NOTE = ThreadLocal.withInitial(() -> "");
  /** What reading the last job's archives on this thread found to say (the CLI says it). */
  private static final ThreadLocal<List<String>> ARCHIVE_NOTES =
      ThreadLocal.withInitial(List::of);

  private LocalAnalysis() {}

  static long jobsStarted() {
    return JOBS.get();
  }

  /**
   * How many archived runs' figures the last job run on this thread read from the archive and
   * how many it computed from their blocks, as one line; "" when it stored none (not nightly,
   * no archive, or filters that change the figures).
   */
  public static String figuresNote() {
    return FIGURES_NOTE.get();
  }

  /**
   * What reading the archives of the last job run on this thread found to say, a line each
   * (runs a night index lists without their index entries); empty for none.
   */
  public static List<String> archiveNotes() {
    return ARCHIVE_NOTES.get();
  }

  /**
   * Analyzes {@code traces} (local files, stdin or a pipe) with {@code settings}, handing the
   * analysis to {@code writer}; returns how many of the traces could not be analyzed.
   */
  public static long run(List<String> traces, AnalyzeSettings settings, AnalysisWriter writer)
      throws IOException {
    return run(traces, List.of(), settings, writer);
  }

  /**
   * Also reads {@code archives} (local archive directories) as {@link ReadArchive} does: each
   * archived run's blocks are read whole, then its windows joined. A {@link RunByRunWriter}
   * (nightly) gets each run assembled alone as soon as its windows are joined, and keeps its
   * part of it: memory then holds one run's whole analysis, not every run's.
   */
  public static long run(List<String> traces, List<String> archives, AnalyzeSettings settings,
      AnalysisWriter writer) throws IOException {
    JOBS.incrementAndGet();
    FIGURES_NOTE.set("");
    ARCHIVE_NOTES.set(List.of());
    SampleSelection selection = AnalyzePipeline.samples(settings);
    Filters filters = AnalyzePipeline.filters(settings, selection);
    Map<String, RunInfo> runs = new LinkedHashMap<>();
    if (writer instanceof RunByRunWriter<?> byRun) {
      runByRun(traces, archives, settings, selection, filters, byRun, runs);
    } else {
      Analysis analysis;
      try (WindowJoiner joiner = new WindowJoiner(selection)) {
        readAll(traces, archives, settings, joiner, runs, info -> { }, null);
        JobProgress.advance(JobProgress.Stage.JOINING, 0); // the windows not joined yet
        Map<String, ProcessAccumulator> processes = joiner.processes();
        JobProgress.addTotal(JobProgress.Stage.WRITING, 1);
        analysis = AnalysisAssembler.assemble(new ArrayList<>(runs.values()), joiner.health(),
            new ArrayList<>(processes.values()), filters);
      }
      WriteReports.writeAtomically(analysis, settings.out(), writer);
    }
    JobProgress.advance(JobProgress.Stage.WRITING, 1);
    return runs.values().stream().filter(RunInfo::isUnusable).count();
  }

  private static <K> void runByRun(List<String> traces, List<String> archives,
      AnalyzeSettings settings, SampleSelection selection, Filters filters,
      RunByRunWriter<K> writer, Map<String, RunInfo> runs) throws IOException {
    List<K> kept = Collections.synchronizedList(new ArrayList<>());
    StoredKept<K> stored = StoredKept.of(writer, settings, kept);
    try (WindowJoiner joiner = new WindowJoiner(selection)) {
      // Assembled on the joining thread while the next run is read.
      List<ReadArchive.LocalRun> archived = readAll(traces, archives, settings, joiner, runs,
          info -> joiner.whenJoined(info.runId,
          (accs, health) -> {
            K k = writer.keep(AnalysisAssembler.assemble(List.of(info), health, accs, filters));
            kept.add(k);
            if (stored != null) {
              stored.computed(info.runId, k);
            }
          }), stored);
      JobProgress.advance(JobProgress.Stage.JOINING, 0); // the windows not joined yet
      joiner.processes(); // every run joined and kept
      if (stored != null) {
        stored.gatherNights(archived); // every run's figures stored
      }
      JobProgress.addTotal(JobProgress.Stage.WRITING, 1);
    }
    if (stored != null) {
      FIGURES_NOTE.set(stored.note());
    }
    // Nothing of the whole analysis is left to hand on: the writer writes what it kept.
    WriteReports.writeAtomically(null, settings.out(),
        (none, open) -> writer.writeKept(kept, filters, open));
  }

  /**
   * Every input of a job of several is damaged: nothing is written, and each is named on a line
   * of its own, as when every input is refused before the job (cli.EarlyRejection).
   */
  static final class DamagedInputs extends IOException implements BadInput {
    DamagedInputs(List<String> why, Throwable first) {
      super(String.join(System.lineSeparator() + "loadprof: ", why) + System.lineSeparator()
          + "loadprof: " + why.size() + " of " + why.size() + " traces could not be analyzed"
          + " (reasons above); no outputs were written", first);
    }
  }

  /** The {@link BadInput} in {@code e}'s chain of causes (bad input, not a failed job), or null. */
  private static BadInput badInput(Throwable e) {
    for (int depth = 0; e != null && depth < 50; e = e.getCause(), depth++) {
      if (e instanceof BadInput bad) {
        return bad;
      }
    }
    return null;
  }

  /**
   * Reads every run, one after the other; {@code read} is told of each once it is read. Returns
   * the archived runs read.
   */
  private static List<ReadArchive.LocalRun> readAll(List<String> traces, List<String> archives,
      AnalyzeSettings settings, WindowJoiner joiner, Map<String, RunInfo> runs,
      Consumer<RunInfo> read, StoredKept<?> stored) throws IOException {
    ParseTraces parse = AnalyzePipeline.parseTraces(settings.windowMs() * 1_000_000L, settings)
        .withRuns(TraceRuns.of(traces));
    Exception firstDamage = null;
    List<String> damaged = new ArrayList<>();
    for (String path : traces) { // one after the other; each one's text is parsed on all cores
      WindowJoiner.Trace windows = joiner.trace();
      RunInfo info;
      try {
        info = parse.readLocally(path, windows::add, windows::completeBefore);
        windows.finish(info);
      } catch (IOException | RuntimeException e) {
        BadInput bad = badInput(e);
        if (bad == null || traces.size() + archives.size() == 1) {
          throw e;
        }
        // One damaged input among several: the others are still analyzed and written, and this
        // one is an unusable run that names it (the CLI lists it, exit 2). Its windows handed on
        // before the damage belong to an unusable run, whose samples the reports leave out.
        firstDamage = firstDamage != null ? firstDamage : e;
        damaged.add(bad.getMessage());
        info = parse.unreadableRun(path, bad.getMessage());
      }
      runs.put(info.runId, info);
      read.accept(info);
    }
    if (!damaged.isEmpty() && damaged.size() == traces.size() && archives.isEmpty()) {
      throw new DamagedInputs(damaged, firstDamage); // nothing to write
    }
    List<String> notes = new ArrayList<>(); // said on this thread, by the listing
    List<ReadArchive.LocalRun> archived = ReadArchive.readRunsLocally(archives,
        RunSelection.parse(settings.nights(), settings.hosts()), notes::add,
        stored == null ? "" : stored.kind());
    ARCHIVE_NOTES.set(List.copyOf(notes));
    // Each run's stored figures are read and decoded on a few threads ahead of their turn (a
    // small read each, waiting on the store), and so are a small run's block files on a store
    // when it has no figures to read. A run whose figures come with its night's file reads
    // nothing and is kept once used: it does not count against the window, so that the few
    // runs among thousands whose blocks are read are read many at once. Those come first, in
    // the order as before, then the others: the joins of a nightly's new runs then have the
    // cores while the stored runs' figures are decoded on the threads ahead, not after (a
    // writer's kept parts are of any order: RunByRunWriter).
    List<ReadArchive.LocalRun> order = new ArrayList<>(archived);
    order.sort(java.util.Comparator.comparingInt(run -> packed(run, stored) ? 1 : 0));
    OrderedPrefetch.forEach(order, OrderedPrefetch.THREADS, OrderedPrefetch.AHEAD,
        run -> packed(run, stored) ? 0 : 1,
        run -> prefetched(run, stored), p -> {
          ReadArchive.LocalRun run = p.run();
          runs.put(run.info().runId, run.info());
          if (stored != null && stored.taken(run, p.figures())) {
            return; // its figures are stored: its blocks are not read
          }
          WindowJoiner.Trace windows = joiner.trace();
          ReadArchive.readBlocksLocally(run, p.blockFiles(), block -> {
            JobProgress.expect(JobProgress.Stage.JOINING, 1);
            windows.add(block);
          });
          windows.finish(run.info());
          read.accept(run.info());
        });
    return archived;
  }

  /** Whether a run's stored figures come with its night's file (its blocks are not read). */
  private static boolean packed(ReadArchive.LocalRun run, StoredKept<?> stored) {
    return stored != null && run.member() != null && run.member().packed();
  }

  /**
   * An archived run with its stored figures as read ahead (null when none are looked up), and
   * its block files' bytes where they were read ahead (by path).
   */
  private record Prefetched(ReadArchive.LocalRun run, RunFigures.Stored figures,
      Map<String, byte[]> blockFiles) {}

  private static Prefetched prefetched(ReadArchive.LocalRun run, StoredKept<?> stored) {
    RunFigures.Stored figures = stored == null ? null : stored.lookUp(run);
    boolean blocksNeeded = figures == null || figures.problem() != null;
    return new Prefetched(run, figures, blocksNeeded ? BlockFilesAhead.of(run) : Map.of());
  }
}
