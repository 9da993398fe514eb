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

  /**
   * The name and version of what {@link #keep} computes, when it may be stored beside an
   * archived run and read back by later jobs instead of the run's blocks ("" when it is not):
   * the version is raised whenever a change makes keep() give other figures for the same
   * blocks, so that stored parts of older versions are computed again.
   */
  default String storedKeptVersion() {
    return "";
  }

  /**
   * A stored part made current for {@code read}, the run as read today from its manifest:
   * what is decided on the day a job runs (the run's night, and whether it is in doubt) is
   * taken from it.
   */
  default K asReadToday(K stored, dev.loadprof.model.RunInfo read) {
    return stored;
  }
}
