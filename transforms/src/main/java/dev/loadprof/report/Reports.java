package dev.loadprof.report;

import dev.loadprof.profile.PprofBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

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
   * returns for its file name (opened in the order of {@link #ALL}, on this thread); each stream
   * is closed after writing. The reports only read the analysis, so they are written on all
   * cores.
   */
  public static void writeAll(Analysis a, Function<String, OutputStream> open) throws IOException {
    List<Report> reports = ALL.stream().filter(r -> r.appliesTo(a)).toList();
    List<OutputStream> outs = new ArrayList<>();
    try {
      for (Report r : reports) {
        outs.add(open.apply(r.fileName()));
      }
      IntStream.range(0, reports.size()).parallel().forEach(i -> {
        try (OutputStream out = outs.get(i)) {
          reports.get(i).write(a, out);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (RuntimeException | Error e) {
      for (OutputStream out : outs) { // those a failure left open; closing twice does nothing
        try {
          out.close();
        } catch (IOException | RuntimeException ignored) {
          // the first failure is the one to tell
        }
      }
      if (e instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw e;
    }
  }

  public static PprofBuilder pprof(Analysis a) {
    return new PprofBuilder(a.runs(), a.processes(), a.threadStacks(), a.loadFilter());
  }
}
