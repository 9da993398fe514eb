package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.model.RunInfo;
import dev.loadprof.parse.PerfScriptParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The unusable verdict is a field set when the run has been read, so the pipeline (ParseTraces,
 * ReadArchive) and the in-memory path, which share BlockBuilder.finish, agree.
 */
class UnusablePolicyTest {
  private static RunInfo read(String text) throws IOException {
    return InMemoryAnalysis.of(new PerfScriptParser(),
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "garbage",
        1_000_000_000L).run;
  }

  @Test
  void textThatIsNotATraceIsUnusableWithTheReasonFirstAmongTheWarnings() throws IOException {
    RunInfo run = read("hello\nthis is not a trace\n");
    assertTrue(run.isUnusable());
    assertTrue(run.unusableReason.startsWith("garbage: no perf samples or sched_switch records"),
        run.unusableReason);
    assertTrue(run.unusableReason.contains("perf record -k mono -a -g"), run.unusableReason);
    assertTrue(run.unusableReason.contains("then loadprof analyze X.data (or its text: perf"
        + " script -i X.data"), "perf script is the other way in, not a step: "
        + run.unusableReason);
    assertEquals(UnusablePolicy.WARNING_PREFIX + run.unusableReason, run.warnings.get(0));
  }

  /**
   * perf record -e cpu-clock -e sched:sched_switch -- CMD, without -a: the samples have no CPU
   * (the tracepoint's records have one) and each switch record is one of the program's own
   * switch-outs. The verdict says so, not
   * "no sched_switch records", and no warning claims that loads came from switch records.
   */
  @Test
  void aPerProcessRecordingOfTheTracepointSaysWhyItsSwitchesCannotGiveLoads() throws IOException {
    RunInfo run = read("app    10/11     1.000000000:     250000 cpu-clock: \n"
        + "\t            12f0 work (/bin/app)\n\n"
        + "app    10/11 [000]     1.000100000:          1 sched:sched_switch: prev_comm=app"
        + " prev_pid=11"
        + " prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n\n"
        + "app    10/11     1.000400000:     250000 cpu-clock: \n"
        + "\t            12f0 work (/bin/app)\n\n");
    assertTrue(run.isUnusable());
    assertTrue(run.unusableReason.startsWith("garbage: recorded per process (perf record without"
        + " -a: its samples have no CPU), so its 1 sched:sched_switch records are only the"
        + " program's own switch-outs"), run.unusableReason);
    assertTrue(run.unusableReason.contains("perf record -k mono -a -g"), run.unusableReason);
    assertTrue(run.unusableReason.endsWith("or without root: loadprof record -- CMD"),
        run.unusableReason);
    assertFalse(run.warnings.stream().anyMatch(w -> w.contains("context-switch records")),
        run.warnings.toString());
  }

  @Test
  void aTraceWithSwitchesAndSamplesIsUsable() throws IOException {
    RunInfo run = read("swapper     0/0     [000]     1.000000000:          1"
        + " sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R"
        + " ==> next_comm=app next_pid=11 next_prio=120\n\n"
        + "app    10/11    [000]     1.001000000:    1000000 cpu-clock: \n"
        + "\t            12f0 work (/bin/app)\n\n");
    assertFalse(run.isUnusable(), run.unusableReason);
    assertEquals("", run.unusableReason);
    assertEquals(List.of(), run.warnings);
  }

  @Test
  void theVerdictOfAnArchivedRunIsTheSame() throws IOException {
    RunInfo run = read("hello\n");
    RunInfo back = ArchiveConversions.fromManifest(ArchiveConversions.toManifest(run,
        new ArchiveConversions.Storage("sha256:00", null, 1_000_000_000L, 0, List.of(),
            "2026-11-20", "job1")));
    assertEquals(run.unusableReason, back.unusableReason);
    assertEquals(run, back);
  }
}
