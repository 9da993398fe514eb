package dev.loadprof.report;

import dev.loadprof.profile.PprofBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/** Writes every output file of a run, by its fixed name. */
public final class Reports {
  private Reports() {}

  /**
   * Writes profile.pb.gz, histogram.txt, functions.txt, flame.folded and summary.json, each to the
   * stream that {@code open} returns for its name; each stream is closed after writing. With more
   * than one run or a group-by, also groups.txt and runs.txt.
   */
  public static void writeAll(Analysis a, Function<String, OutputStream> open) throws IOException {
    try (OutputStream out = open.apply(PprofBuilder.FILE_NAME)) {
      pprof(a).writeGzipped(out);
    }
    try (OutputStream out = open.apply(HistogramReport.FILE_NAME)) {
      new HistogramReport().write(a, out);
    }
    try (OutputStream out = open.apply(FunctionsReport.FILE_NAME)) {
      new FunctionsReport().write(a, out);
    }
    try (OutputStream out = open.apply(FoldedReport.FILE_NAME)) {
      new FoldedReport().write(a, out);
    }
    try (OutputStream out = open.apply(SummaryJson.FILE_NAME)) {
      new SummaryJson().write(a, out);
    }
    if (a.hasManyRunsReports()) {
      try (OutputStream out = open.apply(GroupsReport.FILE_NAME)) {
        new GroupsReport().write(a, out);
      }
      try (OutputStream out = open.apply(RunsReport.FILE_NAME)) {
        new RunsReport().write(a, out);
      }
    }
  }

  public static PprofBuilder pprof(Analysis a) {
    return new PprofBuilder(a.runs(), a.processes(), a.threadStacks(), a.loadFilter());
  }
}
