package dev.loadprof.report;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Function;

/**
 * A writer whose outputs need of each run only a small part of its analysis: a job that
 * analyzes its runs one after the other (pipelines.LocalAnalysis) assembles each run alone,
 * hands it to {@link #keep} and drops it, so that memory holds one run's whole analysis and
 * every run's kept part, not every run's whole analysis. {@link #write} of the analysis of all
 * runs at once (the Beam pipeline's last step) must give the same bytes as {@link #writeKept}
 * of the parts kept run by run.
 *
 * @param <K> what is kept of one run
 */
public interface RunByRunWriter<K> extends AnalysisWriter {
  /** What the outputs need of one run, from its analysis assembled alone. */
  K keep(Analysis run);

  /**
   * Writes the outputs from what was kept of every run (in any order), assembled with
   * {@code filters}.
   */
  void writeKept(List<K> kept, Filters filters, Function<String, OutputStream> open)
      throws IOException;
}
