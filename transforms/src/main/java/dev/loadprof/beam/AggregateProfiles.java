package dev.loadprof.beam;

import dev.loadprof.load.ProcessAccumulator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * Sums the per-window partial results into one accumulator per (run, process), and the
 * per-window health counters into one set per run. All sums are of integers, so the result does
 * not depend on the order in which a runner combines the parts.
 */
public final class AggregateProfiles extends PTransform<PCollectionTuple, PCollectionTuple> {

  @Override
  public PCollectionTuple expand(PCollectionTuple joined) {
    PCollection<KV<String, ProcessAccumulator>> processes = joined
        .get(JoinSamplesWithLoad.PROCESSES)
        .apply("Sum windows per process", Combine.perKey(new MergeAccumulators()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), ProcessAccumulatorCoder.of()));
    PCollection<KV<String, Map<String, Long>>> health = joined
        .get(JoinSamplesWithLoad.RUN_HEALTH)
        .apply("Sum health per run", Combine.perKey(new SumCounters()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(),
            MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of())));
    return PCollectionTuple.of(JoinSamplesWithLoad.PROCESSES, processes)
        .and(JoinSamplesWithLoad.RUN_HEALTH, health);
  }

  static final class MergeAccumulators
      implements SerializableFunction<Iterable<ProcessAccumulator>, ProcessAccumulator> {
    @Override
    public ProcessAccumulator apply(Iterable<ProcessAccumulator> parts) {
      ProcessAccumulator sum = null;
      for (ProcessAccumulator p : parts) {
        // Never mutate an input: start from an empty accumulator.
        if (sum == null) {
          sum = new ProcessAccumulator(p.runId, p.pid);
        }
        sum.mergeFrom(p);
      }
      return sum;
    }
  }

  static final class SumCounters
      implements SerializableFunction<Iterable<Map<String, Long>>, Map<String, Long>> {
    @Override
    public Map<String, Long> apply(Iterable<Map<String, Long>> parts) {
      TreeMap<String, Long> sum = new TreeMap<>();
      for (Map<String, Long> p : parts) {
        p.forEach((k, v) -> sum.merge(k, v, Long::sum));
      }
      return sum;
    }
  }
}
