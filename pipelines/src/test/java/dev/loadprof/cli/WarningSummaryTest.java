package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.model.LossTimeline;
import dev.loadprof.model.RunInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** perf's few exact duplicates are one info line; a warning about them stays a warning. */
class WarningSummaryTest {
  static String print(String summaryJson) throws Exception {
    JsonNode summary = new ObjectMapper().readTree(summaryJson);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    WarningSummary.print(summary, new PrintStream(err, true, StandardCharsets.UTF_8));
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void fewDuplicatesAreOneInfoLineAndNoWarning() throws Exception {
    String err = print("{\"runs\": ["
        + "{\"source\": \"a.data\", \"health\": {\"duplicate_switches\": 7,"
        + " \"duplicate_samples\": 6}, \"warnings\": []},"
        + "{\"source\": \"b.data\", \"health\": {\"duplicate_samples\": 2}, \"warnings\": []},"
        + "{\"source\": \"c.data\", \"health\": {}, \"warnings\": []}]}");
    assertEquals("loadprof: info: 15 exact duplicate records (perf writes a few into a"
        + " recording) were dropped, so each event counts once; no figure is off (2 traces:"
        + " a.data, b.data; health in summary.json)\n", err);
  }

  @Test
  void manyDuplicatesStayAWarningSaidOnce() throws Exception {
    String warning = "d.txt: 900 duplicate records (the same event twice on one CPU; first:"
        + " CPU 0 at 1.000000000 s) were dropped; figures count each event once.";
    String err = print("{\"runs\": [{\"source\": \"d.txt\", \"health\":"
        + " {\"duplicate_samples\": 900}, \"warnings\": [\"" + warning + "\"]}]}");
    assertEquals("loadprof: 1 warning (figures may be off; details in summary.json):\n  "
        + warning + "\n", err);
  }

  /** A per-process recording as nobody: what it cannot see is one info line with its fix. */
  @Test
  void whatAPerProcessRecordingCannotSeeIsOneInfoLine() throws Exception {
    String limit = RunInfo.PER_PROCESS_LIMIT;
    String lost = LossTimeline.warning("p.data", 12);
    String err = print("{\"runs\": [{\"source\": \"p.data\", \"health\": {}, \"warnings\": ["
        + "\"p.data: " + limit + "loads come from per-thread context-switch records\","
        + "\"p.data: " + limit + "the sampling event cpu-clock:u counts user time only\","
        + "\"p.data: " + limit + "its switch records say only whether a thread was preempted\","
        + "\"p.data: " + limit + "no switch-out call chains\","
        + "\"" + lost + "\"]}]}");
    List<String> lines = err.lines().toList();
    assertEquals(3, lines.size(), err);
    assertTrue(lines.get(0).startsWith("loadprof: info: p.data recorded per process"), err);
    assertTrue(lines.get(0).contains("record as root (loadprof record --mode system)"), err);
    // no sched_wakeup per process: the critical path cannot cross a wait to its waker
    assertTrue(lines.get(0).contains("no wake-ups (so the critical path stops at each wait"),
        err);
    assertEquals("loadprof: 1 warning (figures may be off; details in summary.json):",
        lines.get(1));
    assertEquals("  " + lost, lines.get(2));
    assertTrue(lost.contains("loadprof record --mmap-pages"), lost);
  }
}
