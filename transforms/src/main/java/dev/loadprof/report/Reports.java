package dev.loadprof.report;

import dev.loadprof.model.Failures;
import dev.loadprof.profile.PprofBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/** The outputs of an analysis: the one list of them, and writing them all. */
public final class Reports {
  private Reports() {}

  /** Every output, in the order they are written and listed. */
  public static final List<Report> ALL = List.of(
      new PprofReport(),
      new HistogramReport(),
      new FunctionsReport(),
      new FoldedReport(),
      new OffCpuPprofReport(),
      new OffCpuFoldedReport(),
      new CriticalPprofReport(),
      new CriticalFoldedReport(),
      new SpeedscopeReport(),
      new SummaryJson(),
      new AnalyzeReport(),
      new GroupsReport(),
      new RunsReport(),
      new ConsoleSummary());

  /** The names of the files an analysis with one run (or with many runs) writes. */
  public static List<String> fileNames(boolean manyRuns) {
    return ALL.stream()
        .filter(r -> manyRuns || r.scope() == Report.Scope.ALWAYS)
        .map(Report::fileName)
        .toList();
  }

  /**
   * The reports that take longest on big analyses, in that order (measured on a recording of
   * 148 k distinct 48-deep stacks); they are started first, so that the last report to finish
   * is a short one. The others follow in the order of {@link #ALL}.
   */
  private static final List<Class<? extends Report>> LONGEST_FIRST = List.of(
      PprofReport.class, OffCpuPprofReport.class, AnalyzeReport.class, FoldedReport.class,
      FunctionsReport.class, SummaryJson.class);

  /**
   * Writes every report that applies to the analysis, each to the stream that {@code open}
   * returns for its file name, in the order of {@link #ALL}; each stream is closed after writing.
   * The reports only read the analysis, so they are made on all cores, into memory, the longest
   * first; then one output stream is open at a time (a stream to S3 holds a buffer of up to
   * 64 MB, and ten of them at once exhausted a 512 MB heap).
   */
  public static void writeAll(Analysis a, Function<String, OutputStream> open) throws IOException {
    List<Report> reports = ALL.stream().filter(r -> r.appliesTo(a)).toList();
    List<Report> byLength = new ArrayList<>(reports);
    byLength.sort(Comparator.comparingInt(r -> {
      int rank = LONGEST_FIRST.indexOf(r.getClass());
      return rank < 0 ? LONGEST_FIRST.size() : rank; // stable: the others keep ALL's order
    }));
    Map<Report, ByteArrayOutputStream> made = new ConcurrentHashMap<>();
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    CountDownLatch finished = new CountDownLatch(byLength.size());
    Runnable worker = () -> {
      int i;
      while ((i = next.getAndIncrement()) < byLength.size()) {
        try {
          if (failed.get() == null) { // after a failure the rest are only counted
            Report r = byLength.get(i);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            r.write(a, bytes);
            made.put(r, bytes);
          }
        } catch (IOException | RuntimeException | Error e) {
          failed.compareAndSet(null, e);
        } finally {
          finished.countDown();
        }
      }
    };
    // This thread and up to one worker of the common pool per other core take the next report.
    // The workers are not waited for, only the reports: one that never got a thread does no harm.
    int helpers = Math.min(ForkJoinPool.getCommonPoolParallelism(), byLength.size() - 1);
    for (int h = 0; h < helpers && Runtime.getRuntime().availableProcessors() > 1; h++) {
      ForkJoinPool.commonPool().execute(worker);
    }
    worker.run();
    try {
      finished.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the reports were made");
    }
    if (failed.get() != null) {
      throw Failures.asIOException(failed.get());
    }
    for (Report r : reports) {
      try (OutputStream out = open.apply(r.fileName())) {
        made.get(r).writeTo(out);
      }
    }
  }

  public static PprofBuilder pprof(Analysis a) {
    return new PprofBuilder(a.runs(), a.processes(), a.threadStacks(), a.loadFilter());
  }
}
