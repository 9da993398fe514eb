package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
}
