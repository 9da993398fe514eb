package dev.loadprof.beam;

import dev.loadprof.load.LoadJoiner;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.EventBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Brings the blocks of every CPU of one (run, window) together and gives each sample its load.
 * Emits one partial {@link ProcessAccumulator} per process and window, keyed by (run, pid), and
 * the window's interval-building health counters keyed by run.
 */
public final class JoinSamplesWithLoad
    extends PTransform<PCollection<KV<String, EventBlock>>, PCollectionTuple> {
  public static final TupleTag<KV<String, ProcessAccumulator>> PROCESSES =
      new TupleTag<>("processes") {};
  public static final TupleTag<KV<String, Map<String, Long>>> RUN_HEALTH =
      new TupleTag<>("runHealth") {};

  public static String runPidKey(String runId, int pid) {
    return runId + '\t' + pid;
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<String, EventBlock>> keyedBlocks) {
    PCollectionTuple out = keyedBlocks
        .apply("Group CPUs of a window", GroupByKey.create())
        .apply("Weigh samples by load", ParDo.of(new JoinFn())
            .withOutputTags(PROCESSES, TupleTagList.of(RUN_HEALTH)));
    out.get(PROCESSES).setCoder(KvCoder.of(StringUtf8Coder.of(), ProcessAccumulatorCoder.of()));
    out.get(RUN_HEALTH).setCoder(KvCoder.of(StringUtf8Coder.of(),
        MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of())));
    return out;
  }

  static final class JoinFn extends DoFn<KV<String, Iterable<EventBlock>>,
      KV<String, ProcessAccumulator>> {
    @ProcessElement
    public void process(@Element KV<String, Iterable<EventBlock>> window,
        MultiOutputReceiver out) {
      List<EventBlock> blocks = new ArrayList<>();
      TreeMap<String, Long> health = new TreeMap<>();
      for (EventBlock b : window.getValue()) {
        blocks.add(b);
        b.health.forEach((k, v) -> health.merge(k, v, Long::sum));
      }
      String runId = blocks.get(0).runId;
      for (ProcessAccumulator acc : LoadJoiner.join(blocks).values()) {
        out.get(PROCESSES).output(KV.of(runPidKey(runId, acc.pid), acc));
      }
      if (!health.isEmpty()) {
        out.get(RUN_HEALTH).output(KV.of(runId, health));
      }
    }
  }
}
