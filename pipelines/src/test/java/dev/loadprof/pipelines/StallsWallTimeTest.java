package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.Window;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where the whole wall time of ../shared/workloads/stalls goes, on its recorded fixtures
 * (traces/README.md): system-wide with stacks and wakeups, per process without root, and
 * system-wide beside a busy neighbour (cpuhog).
 */
class StallsWallTimeTest {
  static List<Window> windows(String fixture) {
    return E2e.windows(E2e.windowsFile(fixture));
  }

  @Test
  void eachPhaseWaitsInItsStateAtItsFunction() {
    WallChecks.eachPhaseWaitsWhereItShould(E2e.trace("stalls"), windows("stalls"), true,
        Map.of());
  }

  @Test
  void onCpuPlusLoadZeroIsTheSpan() {
    WallChecks.spanAccounted(E2e.trace("stalls"), windows("stalls"));
    System.out.println("stalls: " + WallChecks.wallLine(E2e.trace("stalls"),
        windows("stalls").get(0).pid()));
  }

  @Test
  void perStateThreadSecondsAgreeWithAnIndependentRecount() throws IOException {
    for (String fixture : List.of("stalls", "stalls_busy", "stalls_process")) {
      WallChecks.statesAgreeWithRecount(E2e.trace(fixture), windows(fixture).get(0).pid());
    }
  }

  @Test
  void overloadIsRunnableBehindItsOwnThreads() {
    Window overload = windows("stalls").get(4);
    assertEquals("overload", overload.name());
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(overload.pid()), "--time",
        overload.start() + "," + overload.end(), E2e.trace("stalls").toString());
    JsonNode by = WallChecks.threadStates(cli, overload.pid()).get("runnable_by");
    // 3 busy threads on 2 CPUs: about a third of their time runnable behind each other
    assertTrue(by.get("own_threads_s").asDouble() >= 0.1 * overload.seconds(), by.toString());
  }

  /**
   * stalls_busy is the whole workload with cpuhog (two copies of `yes` at nice -3) spinning
   * beside it, recorded while the VM's other JVMs were stopped: cpuhog is who took its CPUs.
   */
  @Test
  void aBusyNeighbourIsNamedAsTakingTheCpus() {
    List<Window> w = windows("stalls_busy");
    WallChecks.spanAccounted(E2e.trace("stalls_busy"), w);
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(w.get(0).pid()),
        E2e.trace("stalls_busy").toString());
    JsonNode by = WallChecks.threadStates(cli, w.get(0).pid()).get("runnable_by");
    List<String> top = new ArrayList<>();
    by.get("top").forEach(t -> top.add(t.get("comm").asText()));
    assertEquals("cpuhog", top.get(0), by.toString());
    assertTrue(by.get("other_processes_s").asDouble() > 0, by.toString());
  }

  /**
   * Without root the switch records say only preempted or not: the sleeps, the queue and the
   * fsync are unknown waits, the overload is runnable, the trace says so once, and the profile
   * is all there.
   */
  @Test
  void aRootlessRecordingSaysWhatIsMissingAndGivesTheRest() {
    List<Window> w = windows("stalls_process");
    WallChecks.eachPhaseWaitsWhereItShould(E2e.trace("stalls_process"), w, false,
        Map.of("sleeping", "unknown", "disk", "unknown"));
    JsonNode ts = WallChecks.onCpuPlusLoadZeroIsTheSpan(E2e.trace("stalls_process"),
        w.get(0).pid());
    assertEquals(0, ts.get("by_state_s").get("sleeping").asDouble());
    assertEquals(0, ts.get("by_state_s").get("disk").asDouble());
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(w.get(0).pid()),
        E2e.trace("stalls_process").toString());
    String warnings = cli.summary().get("runs").get(0).get("warnings").toString();
    String missing = "other waits are 'unknown'";
    assertEquals(1, warnings.split(missing, -1).length - 1, warnings); // said once
    assertThat(warnings, containsString("record system-wide with sched_switch"));
    JsonNode functions = E2e.process(cli.summary(), w.get(0).pid()).get("top_functions");
    assertThat(functions.toString(), containsString("busy_item"));
    assertThat(functions.toString(), containsString("produce"));
  }

  /**
   * The per-process span starts at the program's start, so that the first wait (doze, 0.09 s:
   * its OUT is the main thread's first switch record, with no sample before it) is in the wall.
   */
  @Test
  void aRootlessSpanIsTheWholeWorkload() {
    WallChecks.spanAccounted(E2e.trace("stalls_process"), windows("stalls_process"));
  }
}
