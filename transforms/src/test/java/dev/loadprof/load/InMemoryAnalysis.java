package dev.loadprof.load;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole analysis of one run in one thread, without Beam: the same cores the pipeline runs
 * (BlockBuilder, CpuTimeline, LoadJoiner, ProcessAccumulator) in the same order. Tests use it to
 * check the algorithms on real traces quickly, and to cross-check the pipeline.
 */
public final class InMemoryAnalysis {
  public final RunInfo run;
  /** pid -> the process's accumulated figures. */
  public final Map<Integer, ProcessAccumulator> processes;

  private InMemoryAnalysis(RunInfo run, Map<Integer, ProcessAccumulator> processes) {
    this.run = run;
    this.processes = processes;
  }

  public static InMemoryAnalysis of(TraceReader reader, InputStream trace, String runId,
      long windowNs) throws IOException {
    Map<Long, List<EventBlock>> byWindow = new TreeMap<>();
    BlockBuilder builder = new BlockBuilder(runId, runId, windowNs, null, block -> {
      CpuTimeline.replay(block, true);
      byWindow.computeIfAbsent(block.window, w -> new ArrayList<>()).add(block);
    });
    reader.read(trace, runId, builder);
    RunInfo run = builder.finish();
    reader.describeRun(run);
    Map<Integer, ProcessAccumulator> processes = new HashMap<>();
    for (List<EventBlock> blocks : byWindow.values()) {
      for (EventBlock b : blocks) {
        b.health.forEach(run.health::add);
      }
      LoadJoiner.join(blocks).forEach((pid, acc) ->
          processes.merge(pid, acc, ProcessAccumulator::mergeFrom));
    }
    return new InMemoryAnalysis(run, processes);
  }
}
