package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalysisWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.function.Function;

/**
 * The last step of loadprof compare's pipeline: compares the assembled analysis of all runs and
 * writes every output of {@link CompareOutputs}.
 *
 * @param sideByRun run id -> baseline or candidate, known before the job from the inputs
 */
public record CompareJob(Map<String, Side> sideByRun, CompareSettings settings)
    implements AnalysisWriter {
  public CompareJob {
    sideByRun = Map.copyOf(sideByRun);
  }

  @Override
  public void write(Analysis analysis, Function<String, OutputStream> open) throws IOException {
    // The outputs show the processes compared, under the names they were compared by.
    ComparedProcesses.Chosen chosen = ComparedProcesses.forCompare(analysis, sideByRun);
    CompareOutputs.writeAll(chosen.analysis(), Compare.compare(chosen, sideByRun, settings),
        open);
  }
}
