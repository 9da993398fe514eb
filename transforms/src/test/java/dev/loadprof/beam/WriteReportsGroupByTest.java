package dev.loadprof.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.GroupBy;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

/** Filters.groupBy reaches the Analysis; the 3-argument Filters means no grouping. */
class WriteReportsGroupByTest {
  @Test
  void groupBySpecIsPassedIntoTheAnalysis() {
    Analysis a = assemble(new WriteReports.Filters(null, null, null, "run:^(\\w+)-"));
    assertEquals(GroupBy.parse("run:^(\\w+)-"), a.groupBy());
    assertEquals(1, a.processes().size());
  }

  @Test
  void threeArgumentFiltersAndNoneMeanNoGrouping() {
    assertEquals(GroupBy.NONE, assemble(new WriteReports.Filters(null, null, null)).groupBy());
    assertEquals(GroupBy.NONE, assemble(WriteReports.Filters.none()).groupBy());
  }

  @Test
  void aBadSpecFailsLoudly() {
    assertThrows(
        IllegalArgumentException.class,
        () -> assemble(new WriteReports.Filters(null, null, null, "hosts")));
  }

  private static Analysis assemble(WriteReports.Filters filters) {
    RunInfo run = new RunInfo();
    run.runId = "nightly-01";
    run.processNames.put(7, "app");
    ProcessAccumulator acc = new ProcessAccumulator("nightly-01", 7);
    acc.addSample(1, 1, 1_000_000, new Frame[] {new Frame("main", "app")});
    acc.addTimeAtLoad(1, 1_000_000);
    return WriteReports.assemble(List.of(run), Map.of(), List.of(KV.of("nightly-01/7", acc)),
        filters);
  }
}
