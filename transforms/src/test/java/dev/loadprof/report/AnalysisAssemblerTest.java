package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The assembler applies the verdict and the filters, counts what it leaves out, and passes the
 * grouping on; the 3-argument Filters means no grouping.
 */
class AnalysisAssemblerTest {
  private static RunInfo run() {
    RunInfo run = new RunInfo();
    run.runId = "nightly-01";
    run.processNames.put(7, "app");
    return run;
  }

  private static Analysis assemble(RunInfo run, Filters filters) {
    ProcessAccumulator acc = new ProcessAccumulator("nightly-01", 7);
    acc.addSample(1, 1, 1_000_000, new CallStack(new Frame[] {new Frame("main", "app")}));
    acc.addTimeAtLoad(1, 1_000_000);
    return AnalysisAssembler.assemble(List.of(run), Map.of(), List.of(acc), filters);
  }

  @Test
  void groupBySpecIsPassedIntoTheAnalysis() {
    Analysis a = assemble(run(), new Filters(null, null, null, "run:^(\\w+)-"));
    assertEquals(GroupBy.parse("run:^(\\w+)-"), a.groupBy());
    assertEquals(1, a.processes().size());
  }

  @Test
  void threeArgumentFiltersAndNoneMeanNoGrouping() {
    assertEquals(GroupBy.NONE, assemble(run(), new Filters(null, null, null)).groupBy());
    assertEquals(GroupBy.NONE, assemble(run(), Filters.none()).groupBy());
  }

  @Test
  void aBadSpecFailsLoudly() {
    assertThrows(IllegalArgumentException.class,
        () -> assemble(run(), new Filters(null, null, null, "hosts")));
  }

  @Test
  void samplesOfAnUnusableRunAreCountedNotProfiled() {
    RunInfo run = run();
    run.unusableReason = "x.txt: no sched:sched_switch records";
    Analysis a = assemble(run, Filters.none());
    assertEquals(0, a.processes().size());
    assertEquals(1, a.runs().get(0).health.get(TraceHealth.SAMPLES_OF_UNUSABLE_RUN));
    assertEquals(0, run.health.get(TraceHealth.SAMPLES_OF_UNUSABLE_RUN),
        "the input run is not changed");
  }

  @Test
  void filteredOutSamplesAreCounted() {
    Analysis a = assemble(run(), new Filters(java.util.Set.of(8), null, null));
    assertEquals(0, a.processes().size());
    assertEquals(1, a.runs().get(0).health.get(TraceHealth.SAMPLES_FILTERED_OUT));
  }

  @Test
  void aCappedSumIsARunWarning() {
    RunInfo run = run();
    run.source = "nightly-01.txt";
    ProcessAccumulator acc = new ProcessAccumulator("nightly-01", 7);
    CallStack main = new CallStack(new Frame[] {new Frame("main", "app")});
    acc.addSample(7, 1, Long.MAX_VALUE, main);
    acc.addSample(7, 1, Long.MAX_VALUE, main);
    Analysis a = AnalysisAssembler.assemble(List.of(run), Map.of(), List.of(acc),
        Filters.none());
    assertEquals(Long.MAX_VALUE, a.processes().get(0).cpuNs);
    assertEquals(1, a.runs().get(0).warnings.size(), a.runs().get(0).warnings.toString());
    org.hamcrest.MatcherAssert.assertThat(a.runs().get(0).warnings.get(0),
        org.hamcrest.Matchers.containsString("nightly-01.txt: pid 7 (app): a sum of CPU or real"
            + " time overflowed 64 bits"));
    assertEquals(0, run.warnings.size(), "the input run is not modified");
  }
}
