package dev.loadprof.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.function.Function;

/**
 * What a job makes of its assembled analysis: analyze writes the profiles, compare and nightly
 * their comparisons. Each file goes to the stream {@code open} gives its name, which the caller
 * places atomically. Serializable, because the pipeline's last step carries it to a worker.
 */
@FunctionalInterface
public interface AnalysisWriter extends Serializable {
  /** The name of the short text that the command prints on the console. */
  String CONSOLE_SUMMARY_FILE = "summary.txt";

  void write(Analysis analysis, Function<String, OutputStream> open) throws IOException;
}
