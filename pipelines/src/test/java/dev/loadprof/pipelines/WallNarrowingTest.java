package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.Window;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * --tid, -C, --time and --load narrow the whole-wall outputs (thread_states, offcpu.folded,
 * offcpu.pb.gz) the same way, on the system-wide stalls fixture: in every narrowed analysis the
 * three agree, and the option's complementary selections add up to the whole.
 */
class WallNarrowingTest {
  private static final List<String> STATES =
      List.of("running", "runnable", "sleeping", "disk", "other", "unknown");

  private static final List<Window> WINDOWS = E2e.windows(E2e.windowsFile("stalls"));
  private static final String PID = Integer.toString(WINDOWS.get(0).pid());
  /** In stalls.txt.gz every thread of stalls ran on CPU 1; in stalls_busy a few ran on 0. */
  private static final String BUSY_PID =
      Integer.toString(E2e.windows(E2e.windowsFile("stalls_busy")).get(0).pid());

  /** One narrowed analysis's wall outputs. */
  record Wall(JsonNode states, Map<String, Double> byState, double foldedS,
      Map<Long, Map<String, Double>> pprofByTid) {
    double pprofS() {
      return pprofByTid.values().stream().flatMap(m -> m.values().stream())
          .mapToDouble(Double::doubleValue).sum();
    }

    double waitingS() {
      return byState.entrySet().stream().filter(e -> !e.getKey().equals("running"))
          .mapToDouble(Map.Entry::getValue).sum();
    }
  }

  private static Wall wall(String... options) throws IOException {
    return wallOf("stalls", PID, options);
  }

  private static Wall wallOf(String fixture, String pid, String... options) throws IOException {
    String[] args = new String[options.length + 3];
    args[0] = "--pid";
    args[1] = pid;
    System.arraycopy(options, 0, args, 2, options.length);
    args[args.length - 1] = E2e.trace(fixture).toString();
    Cli cli = E2e.analyzeCached(args);
    JsonNode states = WallChecks.threadStates(cli, Integer.parseInt(pid));
    Map<String, Double> byState = new TreeMap<>();
    for (String s : STATES) {
      byState.put(s, states.get("by_state_s").get(s).asDouble());
    }
    double folded = 0;
    for (String line : cli.file("offcpu.folded").split("\n")) {
      if (!line.isBlank()) {
        folded += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)) / 1e9;
      }
    }
    Map<Long, Map<String, Double>> byTid = new TreeMap<>();
    ProfileProto.Profile p;
    try (InputStream in = new GZIPInputStream(
        Files.newInputStream(cli.out().resolve("offcpu.pb.gz")))) {
      p = ProfileProto.Profile.parseFrom(in);
    }
    for (ProfileProto.Sample sample : p.getSampleList()) {
      long tid = -1;
      String state = null;
      for (ProfileProto.Label l : sample.getLabelList()) {
        String key = p.getStringTable((int) l.getKey());
        if (key.equals("tid")) {
          tid = l.getNum();
        } else if (key.equals("state")) {
          state = p.getStringTable((int) l.getStr());
        }
      }
      byTid.computeIfAbsent(tid, t -> new TreeMap<>()).merge(state, sample.getValue(0) / 1e9,
          Double::sum);
    }
    Wall w = new Wall(states, byState, folded, byTid);
    // The three outputs are narrowed alike: the same off-CPU thread-seconds in each.
    String what = String.join(" ", options) + ": " + states;
    assertEquals(w.waitingS(), w.foldedS(), 1e-5 + 1e-6 * w.waitingS(), "offcpu.folded " + what);
    assertEquals(w.waitingS(), w.pprofS(), 1e-5 + 1e-6 * w.waitingS(), "offcpu.pb.gz " + what);
    return w;
  }

  /** Per state, the parts' thread-seconds add up to the whole's. */
  private static void partsMakeTheWhole(Wall whole, Wall... parts) {
    for (String s : STATES) {
      double sum = 0;
      for (Wall part : parts) {
        sum += part.byState().get(s);
      }
      assertEquals(whole.byState().get(s), sum, 1e-5 + 1e-6 * whole.byState().get(s), s);
    }
  }

  @Test
  void tidKeepsThoseThreadsTimeInEveryWallOutput() throws IOException {
    Wall whole = wall();
    TreeSet<Long> others = new TreeSet<>(whole.pprofByTid().keySet());
    assertTrue(others.remove(Long.parseLong(PID)), "main thread waits: " + others);
    assertTrue(others.size() >= 3, "stalls' other threads: " + others);
    Wall main = wall("--tid", PID);
    Wall rest = wall("--tid", others.stream().map(String::valueOf)
        .collect(Collectors.joining(",")));
    assertEquals(List.of(Long.parseLong(PID)), List.copyOf(main.pprofByTid().keySet()));
    // main's waits are exactly its part of the whole analysis's off-CPU profile
    Map<String, Double> mainInWhole = whole.pprofByTid().get(Long.parseLong(PID));
    mainInWhole.forEach((state, s) -> assertEquals(s, main.pprofByTid().get(Long.parseLong(PID))
        .get(state), 1e-6, state));
    assertTrue(main.byState().get("sleeping") > 0.1, main.states().toString());
    partsMakeTheWhole(whole, main, rest);
  }

  @Test
  void cpuKeepsTheTimeOfThreadsOnThoseCpus() throws IOException {
    Wall whole = wallOf("stalls_busy", BUSY_PID);
    Wall cpu0 = wallOf("stalls_busy", BUSY_PID, "-C", "0");
    Wall cpu1 = wallOf("stalls_busy", BUSY_PID, "-C", "1");
    String both = cpu0.states() + "\n" + cpu1.states();
    double all = whole.waitingS() + whole.byState().get("running");
    for (Wall part : List.of(cpu0, cpu1)) {
      double kept = part.waitingS() + part.byState().get("running");
      assertTrue(kept > 0 && kept < all, both);
    }
    partsMakeTheWhole(whole, cpu0, cpu1);
  }

  @Test
  void timeKeepsTheInstantsInItsRanges() throws IOException {
    Wall whole = wall();
    double mid = WINDOWS.get(2).start(); // queue_wait: the doze and the pipe before it
    String at = String.format(Locale.ROOT, "%.9f", mid);
    Wall before = wall("--time", "," + at);
    Wall after = wall("--time", at + ",");
    partsMakeTheWhole(whole, before, after);
    double span = whole.states().get("span_s").asDouble();
    assertEquals(span, before.states().get("span_s").asDouble()
        + after.states().get("span_s").asDouble(), 1e-6);
    // the doze (main asleep, nothing running) is in the first part only
    assertTrue(before.states().get("load0_by_state_s").get("sleeping").asDouble() > 0.05,
        before.states().toString());
  }

  @Test
  void loadKeepsTheInstantsAtThoseLoads() throws IOException {
    Wall whole = wall();
    Wall idle = wall("--load", "0:0");
    Wall busy = wall("--load", "1:");
    partsMakeTheWhole(whole, idle, busy);
    assertEquals(0, idle.states().get("on_cpu_real_s").asDouble(), 1e-9);
    assertEquals(0, busy.states().get("load0_s").asDouble(), 1e-9);
    assertEquals(0, idle.byState().get("running"), 1e-9);
    assertEquals(whole.states().get("load0_s").asDouble(),
        idle.states().get("span_s").asDouble(), 1e-6);
  }
}
