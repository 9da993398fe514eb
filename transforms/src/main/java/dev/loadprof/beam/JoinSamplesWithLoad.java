package dev.loadprof.beam;

import dev.loadprof.load.LoadJoiner;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.progress.JobProgress;
import java.util.ArrayList;
import java.util.Collection;
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
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Brings the blocks of every CPU of one (run, window) together and gives each sample its load.
 * Emits one partial {@link ProcessAccumulator} per process and window, keyed by (run, pid), and
 * the window's interval-building health counters keyed by run. With a {@link SampleSelection}
 * (--tid, --cpu, --time) only the selected samples go into the stacks; percentages of --time
 * and whether samples carry a CPU come from the runs, a side input.
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

  private final SampleSelection selection;
  private final PCollection<RunInfo> runs;

  /** Every sample into the stacks. */
  public JoinSamplesWithLoad() {
    this(SampleSelection.ALL, null);
  }

  /** Only the samples {@code selection} keeps into the stacks; {@code runs} as read. */
  public JoinSamplesWithLoad(SampleSelection selection, PCollection<RunInfo> runs) {
    this.selection = selection;
    this.runs = runs;
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<String, EventBlock>> keyedBlocks) {
    PCollectionView<Map<String, RunInfo>> runView = selection.isAll() ? null : runs
        .apply("Key runs by id", WithKeys.of((RunInfo r) -> r.runId)
            .withKeyType(TypeDescriptors.strings()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), RunInfoCoder.of()))
        .apply("Runs for the sample filters", View.asMap());
    ParDo.SingleOutput<KV<String, Iterable<EventBlock>>, KV<String, ProcessAccumulator>> join =
        ParDo.of(new JoinFn(selection, runView));
    if (runView != null) {
      join = join.withSideInputs(runView);
    }
    PCollectionTuple out = keyedBlocks
        .apply("Group CPUs of a window", GroupByKey.create())
        .apply("Weigh samples by load",
            join.withOutputTags(PROCESSES, TupleTagList.of(RUN_HEALTH)));
    out.get(PROCESSES).setCoder(KvCoder.of(StringUtf8Coder.of(), ProcessAccumulatorCoder.of()));
    out.get(RUN_HEALTH).setCoder(KvCoder.of(StringUtf8Coder.of(),
        MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of())));
    return out;
  }

  /**
   * The samples of one (run, window), all CPUs' blocks, weighed by load: one partial accumulator
   * per process. {@code run} gives the --time percentages and whether samples carry a CPU; null
   * when the selection keeps every sample (or the run is unknown).
   */
  public static Collection<ProcessAccumulator> join(List<EventBlock> blocks,
      SampleSelection selection, RunInfo run) {
    SampleSelection.Selector selector = SampleSelection.EVERY_SAMPLE;
    if (!selection.isAll()) {
      selector = run == null ? selection.forRun(0, 0, false)
          : selection.forRun(run.startNs, run.endNs, "cpu".equals(run.lanes));
    }
    return LoadJoiner.join(blocks, selector).values();
  }

  static final class JoinFn extends DoFn<KV<String, Iterable<EventBlock>>,
      KV<String, ProcessAccumulator>> {
    private final SampleSelection selection;
    private final PCollectionView<Map<String, RunInfo>> runView;

    JoinFn(SampleSelection selection, PCollectionView<Map<String, RunInfo>> runView) {
      this.selection = selection;
      this.runView = runView;
    }

    @ProcessElement
    public void process(@Element KV<String, Iterable<EventBlock>> window,
        MultiOutputReceiver out, ProcessContext context) {
      List<EventBlock> blocks = new ArrayList<>();
      TreeMap<String, Long> health = new TreeMap<>();
      for (EventBlock b : window.getValue()) {
        blocks.add(b);
        b.health.forEach((k, v) -> health.merge(k, v, Long::sum));
      }
      String runId = blocks.get(0).runId;
      RunInfo run = runView == null ? null : context.sideInput(runView).get(runId);
      for (ProcessAccumulator acc : join(blocks, selection, run)) {
        out.get(PROCESSES).output(KV.of(runPidKey(runId, acc.pid), acc));
      }
      if (!health.isEmpty()) {
        out.get(RUN_HEALTH).output(KV.of(runId, health));
      }
      JobProgress.advance(JobProgress.Stage.JOINING, blocks.size());
    }
  }
}
