package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.Window;
import dev.loadprof.testtools.RequiredTools.Tool;
import dev.loadprof.testtools.RequiredTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole-wall claims of {@link StallsWallTimeTest} on a fresh recording: {@code loadprof
 * record} runs ../shared/workloads/stalls (as root), its perf.data is decoded with the
 * recommended fields, and the phases, the span and the independent recount are checked again.
 */
class StallsWallTimeIT {
  @TempDir static Path shared;
  static Path stalls;

  @BeforeAll
  static void buildStalls() throws Exception {
    RequiredTools.require(Tool.PERF, Tool.MAKE, Tool.GCC);
    RequiredTools.requireRoot("loadprof record's system-wide mode needs it");
    Path sources = RequiredTools.workloads();
    Path workloads = shared.resolve("wl");
    assertEquals(0, run(List.of("cp", "-r", sources.toString(), workloads.toString()), null));
    assertEquals(0, run(List.of("make", "-s", "-C", workloads.toString(), "stalls"), null));
    stalls = workloads.resolve("stalls");
    // a busy neighbour with a recognisable name: 2 threads spinning
    Path hog = shared.resolve("cpuhog.c");
    Files.writeString(hog, "#include <pthread.h>\nstatic volatile unsigned long n;\n"
        + "static void *spin(void *a) { (void)a; for (;;) n++; return 0; }\n"
        + "int main(void) { pthread_t t; pthread_create(&t, 0, spin, 0); spin(0); }\n");
    assertEquals(0, run(List.of("cc", "-O1", "-pthread", "-o", shared.resolve("cpuhog")
        .toString(), hog.toString()), null));
  }

  private static int run(List<String> command, Path stdout)
      throws IOException, InterruptedException {
    return new ProcessBuilder(command)
        .redirectOutput(stdout == null ? ProcessBuilder.Redirect.DISCARD
            : ProcessBuilder.Redirect.to(stdout.toFile()))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }

  /** loadprof record MODE of stalls 0.3; returns its text trace, its WINDOW lines beside it. */
  private static Path record(Path out, String mode, String fields) throws Exception {
    Cli cli = E2e.cli("record", "--mode", mode, "--freq", "1000", "--name", "stalls", "--out",
        out.toString(), "--",
        stalls.toString(), "0.3", out.resolve("stalls.tmp").toString());
    assertEquals(0, cli.exit(), cli.stderr());
    Files.writeString(out.resolve("stalls.windows"), cli.stderr(), StandardCharsets.UTF_8);
    Path text = out.resolve("stalls.txt");
    assertEquals(0, run(List.of("perf", "script", "-f", "-i", out.resolve("stalls.data")
        .toString(), "--ns", "--show-task-events", "--show-switch-events",
        "--show-lost-events", "-F", fields), text));
    return text;
  }

  @Test
  void systemWideRecordingOfStalls(@TempDir Path out) throws Exception {
    Path text = record(out, "system", "comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso");
    List<Window> windows = E2e.windows(out.resolve("stalls.windows"));
    WallChecks.eachPhaseWaitsWhereItShould(text, windows, true, Map.of());
    WallChecks.spanAccounted(text, windows);
    WallChecks.statesAgreeWithRecount(text, windows.get(0).pid());
  }

  @Test
  void aBusyNeighbourIsNamedAsTakingTheCpus(@TempDir Path out) throws Exception {
    Process hog = new ProcessBuilder(shared.resolve("cpuhog").toString()).start();
    Path text;
    try {
      text = record(out, "system", "comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso");
    } finally {
      hog.destroy();
      hog.waitFor();
    }
    List<Window> windows = E2e.windows(out.resolve("stalls.windows"));
    int pid = windows.get(0).pid();
    WallChecks.statesAgreeWithRecount(text, pid);
    JsonNode by = WallChecks.threadStates(E2e.analyzeCached("--pid", Integer.toString(pid),
        text.toString()), pid).get("runnable_by");
    List<String> top = new ArrayList<>();
    by.get("top").forEach(t -> top.add(t.get("comm").asText()));
    assertTrue(top.contains("cpuhog"), by.toString());
  }

  @Test
  void perProcessRecordingOfStalls(@TempDir Path out) throws Exception {
    Path text = record(out, "process", "comm,pid,tid,cpu,time,period,event,ip,sym,dso");
    List<Window> windows = E2e.windows(out.resolve("stalls.windows"));
    WallChecks.eachPhaseWaitsWhereItShould(text, windows, false,
        Map.of("sleeping", "unknown", "disk", "unknown"));
    WallChecks.onCpuPlusLoadZeroIsTheSpan(text, windows.get(0).pid());
    WallChecks.statesAgreeWithRecount(text, windows.get(0).pid());
  }
}
