package dev.loadprof.beam;

import dev.loadprof.load.CpuTimeline;
import dev.loadprof.model.EventBlock;
import dev.loadprof.progress.JobProgress;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Builds each block's run intervals (who ran on its CPU when, chain breaks repaired) and keys the
 * block by (run, window), so that the next step sees every CPU of a window together.
 */
public final class BuildRunIntervals
    extends PTransform<PCollection<EventBlock>, PCollection<KV<String, EventBlock>>> {

  /** The (run, window) key; the run id comes first so keys of one run sort together. */
  public static String runWindowKey(String runId, long window) {
    return runId + '\t' + window;
  }

  @Override
  public PCollection<KV<String, EventBlock>> expand(PCollection<EventBlock> blocks) {
    return blocks
        .apply("Build run intervals per CPU and window", ParDo.of(new DoFn<EventBlock,
            KV<String, EventBlock>>() {
          @ProcessElement
          public void process(@Element EventBlock input, OutputReceiver<KV<String, EventBlock>> out) {
            JobProgress.advance(JobProgress.Stage.JOINING, 0); // the join's first half begun
            EventBlock b = input.withSameEvents(); // Beam forbids mutating inputs
            CpuTimeline.replay(b, true);
            out.output(KV.of(runWindowKey(b.runId, b.window), b));
          }
        }))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), EventBlockCoder.of()));
  }
}
