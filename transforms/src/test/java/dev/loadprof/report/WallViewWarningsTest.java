package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.ThreadState;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The off-CPU view's "what is missing" warnings appear only where a wait had to be described. */
class WallViewWarningsTest {
  private static RunInfo run() {
    RunInfo r = new RunInfo();
    r.runId = "r";
    r.source = "t.data";
    r.lanes = "cpu";
    return r;
  }

  private static ProcessLoad process(double unknownOffCpuNs) {
    ProcessLoad p = new ProcessLoad();
    p.runId = "r";
    p.threadStates = new ThreadStateSummary();
    p.threadStates.byStateNs[ThreadState.RUNNING.ordinal()] = 5e8;
    p.threadStates.byStateNs[ThreadState.UNKNOWN.ordinal()] = unknownOffCpuNs;
    return p;
  }

  @Test
  void aProcessThatNeverLeftItsCpuNeedsNoStatesOrStacks() {
    RunInfo r = run();
    WallView.warn(List.of(r), List.of(process(0)));
    assertEquals(List.of(), r.warnings);
  }

  @Test
  void waitsWithoutStatesOrStacksAreSaidOnce() {
    RunInfo r = run();
    WallView.warn(List.of(r), List.of(process(1e6), process(2e6)));
    assertEquals(2, r.warnings.size(), r.warnings.toString());
    assertTrue(r.warnings.get(0).startsWith("t.data: the switch records carry no thread states"));
    assertTrue(r.warnings.get(1).startsWith("t.data: no switch-out call chains"));
  }
}
