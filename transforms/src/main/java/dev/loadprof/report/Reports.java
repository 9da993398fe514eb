package dev.loadprof.report;

import dev.loadprof.profile.PprofBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
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
   * Writes every report that applies to the analysis, each to the stream that {@code open}
   * returns for its file name, one after the other; each stream is closed after writing. One at
   * a time: a stream to S3 holds a buffer of up to 64 MB (ten open at once exhausted a 512 MB
   * heap), and reports made on all cores once failed a CI run with a
   * ConcurrentModificationException.
   */
  public static void writeAll(Analysis a, Function<String, OutputStream> open) throws IOException {
    for (Report r : ALL) {
      if (r.appliesTo(a)) {
        try (OutputStream out = open.apply(r.fileName())) {
          r.write(a, out);
        }
      }
    }
  }

  public static PprofBuilder pprof(Analysis a) {
    return new PprofBuilder(a.runs(), a.processes(), a.threadStacks(), a.loadFilter());
  }
}
