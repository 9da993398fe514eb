package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Function;

/** Writes every output of loadprof compare, each to the stream {@code open} gives its name. */
public final class CompareOutputs {
  /**
   * compare.txt, compare.json, baseline.pb.gz, candidate.pb.gz, diff.folded, compare.html and
   * the console summary, in this order.
   */
  public static final List<CompareWriter> WRITERS = List.of(new CompareText(),
      new CompareJson(), SideProfiles.BASELINE, SideProfiles.CANDIDATE, SideProfiles.DIFF,
      new CompareReport(), new CompareSummary());

  private CompareOutputs() {}

  /** Every file of {@link #WRITERS}; each stream is closed after writing. */
  public static void writeAll(Analysis all, Comparison c, Function<String, OutputStream> open)
      throws IOException {
    for (CompareWriter w : WRITERS) {
      try (OutputStream out = open.apply(w.fileName())) {
        w.write(all, c, out);
      }
    }
  }
}
