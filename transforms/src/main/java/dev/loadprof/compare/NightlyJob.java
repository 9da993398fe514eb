package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/**
 * The last step of loadprof nightly's pipeline: the history of the assembled analysis, written
 * by {@link NightlyOutputs}.
 */
public record NightlyJob(NightlySettings settings) implements AnalysisWriter {
  @Override
  public void write(Analysis analysis, Function<String, OutputStream> open) throws IOException {
    NightlyOutputs.writeAll(NightlyHistory.nightly(analysis, settings), open);
  }
}
