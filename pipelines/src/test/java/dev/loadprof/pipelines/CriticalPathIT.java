package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.testtools.RequiredTools;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The critical path on a fresh system-wide recording (perf record -a -g with sched_switch and
 * sched_wakeup, as root) of ../shared/workloads/mixed, a pure fork-join CPU program: 100 times
 * main's serial_section (2 ms, the two workers wait), then the workers' parallel_section (4 ms
 * each, main waits). Its path is the span; its profile agrees with the load-weighted real-time
 * profile (both split the parallel part among equal branches); a section made 50 % faster gains
 * half its time on the path (the serial one is always on it, the parallel branches are equal),
 * and the --what-if asked for is there. The sections spin for a wall time (BUSY_WALL), so on a
 * busy machine their knobs are not "the function 50 % faster": bench/ compares with re-runs.
 */
class CriticalPathIT {
  @TempDir static Path dir;
  static Cli analyzed;

  @BeforeAll
  static void recordMixed() throws Exception {
    Path workloads = BuiltWorkloads.in(dir);
    RequiredTools.requireRoot("a system-wide recording with sched_wakeup needs it");
    Path data = dir.resolve("mixed.data");
    assertEquals(0, BuiltWorkloads.run(List.of("perf", "record", "-q", "-k", "mono", "-a", "-g",
        "-e", "cpu-clock", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup", "-o",
        data.toString(), "--", workloads.resolve("mixed").toString(), "100", "2", "2")));
    analyzed = E2e.analyze(dir.resolve("out"), "--what-if", "^serial_section$=50%",
        data.toString()).assertOk();
  }

  static JsonNode subject() {
    for (JsonNode p : analyzed.summary().get("runs").get(0).get("processes")) {
      if (p.get("subject").asBoolean() && p.get("comm").asText().equals("mixed")) {
        return p;
      }
    }
    throw new AssertionError("no subject mixed in summary.json");
  }

  @Test
  void thePathIsTheSpan() {
    JsonNode c = subject().get("critical_path");
    assertNotNull(c, "critical_path of the subject");
    long span = c.get("span_ns").asLong();
    assertEquals(span, c.get("path_ns").asLong(), span * 0.01);
    long parts = c.get("oncpu_ns").asLong() + c.get("runnable_own_ns").asLong()
        + c.get("runnable_other_ns").asLong();
    for (JsonNode v : c.get("blocked_ns")) {
      parts += v.asLong();
    }
    assertEquals(span, parts, span * 0.01);
    long folded = 0;
    for (String line : analyzed.file("critical.folded").split("\n")) {
      folded += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }
    assertEquals(span, folded, span * 0.01, "critical.folded adds up to the span");
    assertTrue(analyzed.bytes("critical.pb.gz").length > 0);
    assertTrue(analyzed.stdout().contains("Top functions on the critical path"),
        analyzed.stdout());
  }

  /**
   * Per top function, its self time on the path as a share of the path's on-CPU time, beside
   * its flat share of the load-weighted real time: within 2 points, plus the share of the path
   * spent waiting for a CPU. Where they differ: the path takes the branch that finished last,
   * the load weighting halves both (equal here); when one worker waits for a CPU (another
   * process's, runnable_other_ns, or its sibling's, runnable_own_ns: both workers queued on one
   * CPU), the other runs alone and the load weighting gives its time full weight, while the path
   * waits for the one that waits; and the path's runs that no sample fell in count in its
   * on-CPU time but in no function. (A fresh-clone CI saw serial_section at 33.1 % of the path
   * against 30.3 % of the real time with 0.6 % of the path waiting for other processes: the
   * sibling's wait was not counted then.)
   */
  @Test
  void theCriticalProfileAgreesWithTheRealTimeProfile() {
    JsonNode p = subject();
    JsonNode c = p.get("critical_path");
    double onCpu = c.get("oncpu_ns").asDouble();
    double waitingForCpu = 100 * (c.get("runnable_other_ns").asDouble()
        + c.get("runnable_own_ns").asDouble()) / c.get("span_ns").asDouble();
    Map<String, Double> real = E2e.topFunctions(p, "flat_real_pct");
    Map<String, Double> critical = new HashMap<>();
    for (JsonNode f : c.get("top_functions")) {
      critical.put(f.get("function").asText(), 100 * f.get("self_ns").asDouble() / onCpu);
    }
    for (String f : List.of("parallel_section", "serial_section")) {
      assertEquals(real.get(f), critical.get(f), 2.0 + waitingForCpu, f + ": real " + real
          + " critical " + critical + ", waiting for a CPU " + waitingForCpu
          + " % of the path");
    }
  }

  @Test
  void aSectionMadeFasterGainsHalfItsTimeOnThePath() {
    JsonNode c = subject().get("critical_path");
    Map<String, Long> at50 = new HashMap<>();
    for (JsonNode w : c.get("what_if")) {
      if (w.get("faster_percent").asInt() == 50) {
        at50.put(w.get("function").asText(), w.get("change_ns").asLong());
      }
    }
    Map<String, Long> onPath = new HashMap<>();
    for (JsonNode f : c.get("top_functions")) {
      onPath.put(f.get("function").asText(), f.get("ns").asLong());
    }
    // Within 30 %: a wait whose wake-up perf lost, with no thread of the process running
    // within 1 ms before its end, keeps its length (the notes count them), and so does the
    // wait for a CPU (fixed in the model). When other processes held the CPUs for more than a
    // tenth of the path (this shared machine at a load average of 10-20 made mixed's 0.68 s
    // take 1.4 s, 0.9 s of it waiting for a CPU), the branches' fixed waits bound the gain
    // sooner: then only a gain of at most half is checked.
    double interference = c.get("runnable_other_ns").asDouble() / c.get("span_ns").asDouble();
    String why = at50 + " on the path " + onPath + ", notes " + c.get("notes")
        + ", interference " + interference;
    for (String f : List.of("serial_section", "parallel_section")) {
      double half = 0.5 * onPath.get(f);
      if (interference <= 0.1) {
        assertEquals(-half, at50.get(f), 0.3 * half, f + ": " + why);
      } else {
        assertTrue(at50.get(f) < 0 && -at50.get(f) <= 1.05 * half, f + ": " + why);
      }
    }
    assertEquals(at50.get("serial_section"), at50.get("^serial_section$"), "asked for");
    assertTrue(at50.get("parallel_section") < at50.get("serial_section"),
        "the larger gain is the parallel section's: " + at50);
  }
}
