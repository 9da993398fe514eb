package dev.loadprof.report;

import java.io.IOException;
import java.io.OutputStream;

/**
 * One output file of an analysis. Every report is in {@link Reports#ALL}; the writer, the golden
 * tests and the pipeline tests go through that list, so a new output is one class added there.
 */
public interface Report {
  /** Which analyses get this output. */
  enum Scope {
    /** Every analysis. */
    ALWAYS,
    /** Only with more than one run, or a --group-by (see {@link Analysis#hasManyRunsReports}). */
    MANY_RUNS
  }

  /** The file's name in the output directory. */
  String fileName();

  default Scope scope() {
    return Scope.ALWAYS;
  }

  /** False for binary outputs (profile.pb.gz), which no text golden can hold. */
  default boolean isText() {
    return true;
  }

  /**
   * False for outputs whose bytes no golden file should pin: profile.pb.gz (binary) and the
   * HTML pages, whose figures the browser tests compare with summary.json instead.
   */
  default boolean hasGolden() {
    return isText();
  }

  /** Writes the output; the stream is left open. */
  void write(Analysis a, OutputStream out) throws IOException;

  default boolean appliesTo(Analysis a) {
    return scope() == Scope.ALWAYS || a.hasManyRunsReports();
  }
}
