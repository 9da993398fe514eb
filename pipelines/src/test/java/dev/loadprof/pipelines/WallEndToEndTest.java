package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.report.GoPprof;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole-wall view of the real phases trace (1 s serial, 1 s on two threads, 0.5 s asleep,
 * 0.5 s serial): on-CPU real time + load-0 time = the span, the load-0 half second is the sleep,
 * the text summary says so in one line, --time narrows it, and the stock go tool pprof reads
 * offcpu.pb.gz with the states as leaf frames and state, pid and tid labels.
 */
class WallEndToEndTest {
  @TempDir static Path dir;
  private static int pid;
  private static E2e.Cli all;
  private static E2e.Cli firstSecond;

  @BeforeAll
  static void analyze() throws IOException {
    pid = E2e.windows(E2e.windowsFile("phases")).get(0).pid();
    String trace = E2e.trace("phases").toString();
    all = E2e.analyze(Files.createDirectories(dir.resolve("all")), "--pid",
        Integer.toString(pid), "--comm", "^phases$", trace).assertOk();
    firstSecond = E2e.analyze(Files.createDirectories(dir.resolve("first")), "--pid",
        Integer.toString(pid), "--comm", "^phases$", "--time", "0%-33%", trace).assertOk();
  }

  private static JsonNode states(E2e.Cli run) throws IOException {
    return E2e.process(run.summary(), pid).get("thread_states");
  }

  @Test
  void onCpuPlusLoadZeroIsTheSpanAndLoadZeroIsTheSleep() throws IOException {
    JsonNode s = states(all);
    double span = s.get("span_s").asDouble();
    assertEquals(span, s.get("on_cpu_real_s").asDouble() + s.get("load0_s").asDouble(),
        0.01 * span);
    assertEquals(3.0, span, 0.05);
    assertEquals(0.5, s.get("load0_s").asDouble(), 0.02);
    assertEquals(0.5, s.get("load0_by_state_s").get("sleeping").asDouble(), 0.02);
    for (String key : List.of("running", "runnable", "sleeping", "disk", "other", "unknown")) {
      assertTrue(s.get("by_state_s").has(key), key);
    }
    for (String key : List.of("own_threads_s", "other_processes_s", "top")) {
      assertTrue(s.get("runnable_by").has(key), key);
    }
    assertTrue(s.has("unfinished_s"));
  }

  @Test
  void theSummarySaysWhereTheWallTimeWentInOneLine() throws IOException {
    String text = all.file("summary.txt");
    assertThat(text, containsString("wall 3.00"));
    assertThat(text, containsString(": sleeping 0.50 s"));
    assertThat(text, containsString("Top waits by load-0 time"));
  }

  @Test
  void timeNarrowsTheWallView() throws IOException {
    JsonNode s = states(firstSecond);
    assertEquals(1.0, s.get("span_s").asDouble(), 0.05);
    assertEquals(0.0, s.get("load0_s").asDouble(), 0.01);
  }

  @Test
  void goToolPprofReadsTheOffCpuProfile() throws Exception {
    GoPprof go = GoPprof.inDir(dir);
    String offcpu = all.out().resolve("offcpu.pb.gz").toString();
    String top = go.run("-top", offcpu);
    assertThat(top, containsString("Type: off_cpu"));
    Map<String, String[]> rows = GoPprof.topRows(top);
    assertTrue(rows.containsKey("sleeping"), top);
    String tags = go.run("-tags", offcpu);
    for (String key : List.of("state", "pid", "tid", "process")) {
      assertThat(tags, containsString(" " + key + ": Total"));
    }
    assertThat(tags, containsString(": " + pid));
  }
}
