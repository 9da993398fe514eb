package dev.loadprof.report;

import dev.loadprof.profile.PprofBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
   * returns for its file name, in the order of {@link #ALL}; each stream is closed after writing.
   * The reports only read the analysis, so they are made on all cores, into memory; then one
   * output stream is open at a time (a stream to S3 holds a buffer of up to 64 MB, and ten of
   * them at once exhausted a 512 MB heap).
   */
  public static void writeAll(Analysis a, Function<String, OutputStream> open) throws IOException {
    List<Report> reports = ALL.stream().filter(r -> r.appliesTo(a)).toList();
    List<ByteArrayOutputStream> made;
    try {
      made = reports.parallelStream().map(r -> {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
          r.write(a, bytes);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return bytes;
      }).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (int i = 0; i < reports.size(); i++) {
      try (OutputStream out = open.apply(reports.get(i).fileName())) {
        made.get(i).writeTo(out);
      }
    }
  }

  public static PprofBuilder pprof(Analysis a) {
    return new PprofBuilder(a.runs(), a.processes(), a.threadStacks(), a.loadFilter());
  }
}
