package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.parse.PerfScriptParser;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class RunInfoTest {
  /** copy() is what the reports change instead of the pipeline's side input: it must be deep. */
  @Test
  void aCopyEqualsTheRunAndChangesApart() throws IOException {
    RunInfo run;
    try (InputStream in = RunInfoTest.class.getResourceAsStream("/traces/mixed.txt.gz")) {
      run = InMemoryAnalysis.of(new PerfScriptParser(), in, "mixed", 1_000_000_000L).run;
    }
    run.warnings.add("a warning");
    run.unusableReason = "mixed: pretend";
    RunInfo copy = run.copy();
    assertEquals(run, copy);
    copy.health.add(TraceHealth.SAMPLES_IN_PROFILES, 5);
    copy.warnings.add("another");
    copy.processNames.put(-5, "x");
    assertNotEquals(run, copy);
    assertEquals(0, run.health.get(TraceHealth.SAMPLES_IN_PROFILES));
    assertEquals(1, run.warnings.size());
  }
}
