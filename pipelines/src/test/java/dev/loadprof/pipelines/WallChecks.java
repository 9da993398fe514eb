package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.Window;
import dev.loadprof.pipelines.SwitchRecount.Counts;
import dev.loadprof.pipelines.SwitchRecount.State;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The whole-wall claims checked on one recording of ../shared/workloads/stalls, shared by the
 * fixture tests and the live one: each phase's dominant wait and where it waits, the span
 * accounted, and the per-state thread-seconds against {@link SwitchRecount}.
 */
final class WallChecks {
  /** A stalls phase: the state its threads mostly wait in, and a frame of that wait. */
  record Phase(String state, Pattern where) {}

  /**
   * Kernel or library frames count as the waiting function too: with frame pointers a libc
   * wrapper hides its caller (clock_nanosleep -> main, doze missing), see RECORDING.md.
   */
  static final Map<String, Phase> STALLS = Map.of(
      "doze", new Phase("sleeping", Pattern.compile("doze|nanosleep")),
      "pipe_wait", new Phase("sleeping", Pattern.compile("pipe_wait|pipe_read|;read;")),
      "queue_wait", new Phase("sleeping", Pattern.compile("wait_item|futex")),
      "sync_file", new Phase("disk", Pattern.compile("sync_file|fsync")),
      "overload", new Phase("runnable", Pattern.compile("busy_item|;busy;")));

  static final List<String> WAIT_STATES =
      List.of("runnable", "sleeping", "disk", "other", "unknown");

  private WallChecks() {}

  static JsonNode threadStates(Cli cli, int pid) {
    JsonNode ts = E2e.process(cli.summary(), pid).get("thread_states");
    assertTrue(ts != null && ts.isObject(), "no thread_states for pid " + pid + ": "
        + E2e.process(cli.summary(), pid));
    return ts;
  }

  /**
   * The wait state with the most thread-seconds of the process's own making: runnable time while
   * other processes held the CPUs is interference, which a busy machine adds to any phase (on
   * the loaded VM the fixture was recorded on, java preempted the 40 ms fsync phase for 20 ms).
   */
  static String dominantWait(JsonNode threadStates) {
    JsonNode by = threadStates.get("by_state_s");
    double interference = threadStates.get("runnable_by").get("other_processes_s").asDouble();
    String best = null;
    double bestSeconds = -1;
    for (String s : WAIT_STATES) {
      double seconds = by.path(s).asDouble() - (s.equals("runnable") ? interference : 0);
      if (seconds > bestSeconds) {
        best = s;
        bestSeconds = seconds;
      }
    }
    return best;
  }

  /** The share of offcpu.folded's time in this state whose stack matches where. */
  static double shareOfStateAt(String folded, String state, Pattern where) {
    double all = 0;
    double at = 0;
    for (String line : folded.split("\n")) {
      int space = line.lastIndexOf(' ');
      if (space < 0 || !line.substring(0, space).endsWith(";" + state)) {
        continue;
      }
      double ns = Double.parseDouble(line.substring(space + 1));
      all += ns;
      if (where.matcher(line.substring(0, space).replace("_[k]", "")).find()) {
        at += ns;
      }
    }
    return all == 0 ? 0 : at / all;
  }

  /**
   * Each phase, analyzed alone (--time its window): its dominant wait state is the expected one
   * and, with stacks, most of that state's off-CPU time is at the expected function.
   */
  static void eachPhaseWaitsWhereItShould(Path trace, List<Window> windows, boolean stacks,
      Map<String, String> stateOverride) {
    for (Window w : windows) {
      Phase phase = STALLS.get(w.name());
      String expected = stateOverride.getOrDefault(phase.state(), phase.state());
      Cli cli = E2e.analyzeCached("--pid", Integer.toString(w.pid()), "--time",
          String.format(Locale.ROOT, "%.9f,%.9f", w.start(), w.end()), trace.toString());
      JsonNode ts = threadStates(cli, w.pid());
      if (w.name().equals("overload") && expected.equals("runnable")) {
        // main sleeps in pthread_join meanwhile: the busy threads' own waits are the runnable
        // ones, behind each other (3 threads on 2 CPUs: ideally a third of their time)
        // 3 threads on 2 CPUs: they wait for a CPU, whoever holds it
        JsonNode by = ts.get("runnable_by");
        double runnable = ts.get("by_state_s").get("runnable").asDouble();
        assertTrue(runnable >= 0.25 * w.seconds(), w.name() + ": " + ts);
        // Behind each other, unless other processes held the CPUs for much of the phase (a CI
        // run beside other builds saw 1.4 thread-s of 3 behind java in 0.97 s): then their
        // waits are rightly the others' making, and the check above is what holds.
        double own = by.get("own_threads_s").asDouble() + by.get("unattributed_s").asDouble();
        if (by.get("other_processes_s").asDouble() < 0.5 * w.seconds()) {
          assertTrue(own >= 0.25 * w.seconds(), w.name() + ": " + ts);
        }
      } else {
        assertEquals(expected, dominantWait(ts), w.name() + ": " + ts);
      }
      if (stacks) {
        double share = shareOfStateAt(cli.file("offcpu.folded"), expected, phase.where());
        assertTrue(share >= 0.5, w.name() + ": only " + share + " of its " + expected
            + " time at " + phase.where() + "\n" + cli.file("offcpu.folded"));
      }
    }
  }

  /** on-CPU real time + load-0 time = the span within 1 %, and the span is the workload's. */
  static JsonNode spanAccounted(Path trace, List<Window> windows) {
    JsonNode ts = onCpuPlusLoadZeroIsTheSpan(trace, windows.get(0).pid());
    double span = ts.get("span_s").asDouble();
    double workload = windows.get(windows.size() - 1).end() - windows.get(0).start();
    // the span also holds the process's start and exit around the WINDOW clock reads
    assertEquals(workload, span, 0.05 * workload + 0.02, ts.toString());
    return ts;
  }

  /** The summary.txt wall line of the process (the first "wall ..." line). */
  static String wallLine(Path trace, int pid) {
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(pid), trace.toString());
    return cli.file("summary.txt").lines().filter(l -> l.startsWith("wall ")).findFirst()
        .orElseThrow(() -> new AssertionError("no wall line in\n" + cli.file("summary.txt")));
  }

  /** on-CPU real time + load-0 time = the process's span within 1 %. */
  static JsonNode onCpuPlusLoadZeroIsTheSpan(Path trace, int pid) {
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(pid), trace.toString());
    JsonNode ts = threadStates(cli, pid);
    double span = ts.get("span_s").asDouble();
    double accounted = ts.get("on_cpu_real_s").asDouble() + ts.get("load0_s").asDouble();
    assertEquals(span, accounted, 0.01 * span, ts.toString());
    return ts;
  }

  /** Per-state thread-seconds within 5 % or 20 ms of the independent recount. */
  static void statesAgreeWithRecount(Path trace, int pid) throws IOException {
    Counts recount = SwitchRecount.countGzipOrText(trace, pid);
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(pid), trace.toString());
    JsonNode by = threadStates(cli, pid).get("by_state_s");
    StringBuilder report = new StringBuilder();
    boolean ok = true;
    for (State s : State.values()) {
      String key = s.name().toLowerCase(Locale.ROOT);
      double mine = by.path(key).asDouble();
      double theirs = recount.seconds(s);
      boolean agrees = Math.abs(mine - theirs) <= Math.max(0.05 * theirs, 0.020);
      ok &= agrees;
      report.append(String.format(Locale.ROOT, "%s: loadprof %.4f s, recount %.4f s%s%n", key,
          mine, theirs, agrees ? "" : "  <-- off"));
    }
    System.out.print(trace.getFileName() + " pid " + pid + ":\n" + report);
    assertTrue(ok, report.toString());
  }
}
