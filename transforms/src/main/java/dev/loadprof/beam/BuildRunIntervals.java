package dev.loadprof.beam;

import dev.loadprof.load.CpuTimeline;
import dev.loadprof.model.EventBlock;
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
            EventBlock b = copyOf(input);
            CpuTimeline.replay(b, true);
            out.output(KV.of(runWindowKey(b.runId, b.window), b));
          }
        }))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), EventBlockCoder.of()));
  }

  /** Beam forbids mutating inputs; the arrays are shared, only the derived fields are new. */
  private static EventBlock copyOf(EventBlock in) {
    EventBlock b = new EventBlock();
    b.runId = in.runId;
    b.cpu = in.cpu;
    b.window = in.window;
    b.windowStartNs = in.windowStartNs;
    b.windowEndNs = in.windowEndNs;
    b.runStartNs = in.runStartNs;
    b.runEndNs = in.runEndNs;
    b.cpuTail = in.cpuTail;
    b.sampleIntervalNs = in.sampleIntervalNs;
    b.periodIsNanoseconds = in.periodIsNanoseconds;
    b.carryIn = in.carryIn;
    b.sampleCount = in.sampleCount;
    b.sampleTime = in.sampleTime;
    b.sampleTid = in.sampleTid;
    b.samplePid = in.samplePid;
    b.samplePeriod = in.samplePeriod;
    b.sampleStack = in.sampleStack;
    b.switchCount = in.switchCount;
    b.switchTime = in.switchTime;
    b.switchPrevTid = in.switchPrevTid;
    b.switchPrevPid = in.switchPrevPid;
    b.switchNextTid = in.switchNextTid;
    b.switchNextPid = in.switchNextPid;
    b.wakeupCount = in.wakeupCount;
    b.wakeupTime = in.wakeupTime;
    b.wakeupTid = in.wakeupTid;
    b.frames = in.frames;
    b.stacks = in.stacks;
    return b;
  }
}
