package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.pipelines.E2e.Window;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * report.html of the stalls fixture (system-wide, stacks, wakeups): the thread-state timeline
 * has a lane per thread with each phase's state where the phase is, the off-CPU flame graph has
 * the phases' waiting functions under their states, and both are narrowed by --time, --tid and
 * --load as summary.json's thread_states are (the page's data, read from the page).
 */
class StallsReportHtmlTest {
  private static final List<String> STATES =
      List.of("running", "runnable", "sleeping", "disk", "other", "unknown");

  private static List<Window> windows() {
    return StallsWallTimeTest.windows("stalls");
  }

  private static int pid() {
    return windows().get(0).pid();
  }

  /** The page's data: the JSON in its data element. */
  static JsonNode pageData(Cli cli) {
    String html = cli.file("report.html");
    String open = "id=\"loadprof-data\">";
    int from = html.indexOf(open) + open.length();
    try {
      return E2e.JSON.readTree(html.substring(from, html.indexOf("</script>", from)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode pageProcess(Cli cli, int pid) {
    for (JsonNode p : pageData(cli).get("processes")) {
      if (p.get("pid").asInt() == pid) {
        return p;
      }
    }
    throw new AssertionError("no process " + pid + " in report.html");
  }

  @Test
  void eachPhaseShowsItsStateInTheMainThreadsLane() {
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(pid()),
        E2e.trace("stalls").toString());
    JsonNode wall = pageProcess(cli, pid()).get("wall");
    assertTrue(wall.get("has_states").asBoolean());
    JsonNode lanes = wall.get("lanes");
    int buckets = lanes.get("buckets").asInt();
    assertTrue(buckets > 100 && buckets <= 1000, "buckets " + buckets);
    assertEquals(lanes.get("threads").asInt(), lanes.get("lanes").size(), "every thread a lane");
    JsonNode main = null;
    for (JsonNode lane : lanes.get("lanes")) {
      assertEquals(buckets, buckets(lane).length());
      main = lane.get("tid").asInt() == pid() ? lane : main;
    }
    assertNotNull(main, "the main thread's lane");
    // The main thread dozes (sleeping), then fsyncs (disk) in its own phases.
    assertEquals("sleeping", stateMostOf(lanes, main, window("doze")));
    assertTrue(statesIn(lanes, main, window("sync_file")).contains("disk"),
        statesIn(lanes, main, window("sync_file")).toString());
    assertSumsAreTheThreadStates(cli, wall);
  }

  @Test
  void theOffCpuFlameGraphHasTheWaitingFunctionsUnderTheirStates() {
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(pid()),
        E2e.trace("stalls").toString());
    JsonNode data = pageData(cli);
    List<String> paths = new ArrayList<>();
    paths(pageProcess(cli, pid()).get("wall").get("offcpu_flame"), data.get("strings"), "",
        paths);
    assertHasPath(paths, Pattern.compile(".*(doze|nanosleep).*;sleeping"));
    assertHasPath(paths, Pattern.compile(".*(sync_file|fsync).*;disk"));
    assertHasPath(paths, Pattern.compile(".*(wait_item|futex).*;sleeping"));
  }

  @Test
  void timeTidAndLoadNarrowTheTimelineAsTheyNarrowTheThreadStates() {
    Window sync = window("sync_file");
    Cli cli = E2e.analyzeCached("--pid", Integer.toString(pid()), "--time",
        sync.start() + "," + sync.end(), E2e.trace("stalls").toString());
    JsonNode wall = pageProcess(cli, pid()).get("wall");
    JsonNode lanes = wall.get("lanes");
    long start = lanes.get("start_ns").asLong();
    long end = start + lanes.get("buckets").asLong() * lanes.get("bucket_ns").asLong();
    assertTrue(start >= ns(sync.start()) - 1000 && end <= ns(sync.end()) + lanes.get("bucket_ns")
        .asLong(), "axis " + start + ".." + end + " in the window");
    assertSumsAreTheThreadStates(cli, wall);

    Cli onlyMain = E2e.analyzeCached("--pid", Integer.toString(pid()), "--tid",
        Integer.toString(pid()), E2e.trace("stalls").toString());
    JsonNode mainLanes = pageProcess(onlyMain, pid()).get("wall").get("lanes");
    assertEquals(1, mainLanes.get("lanes").size());
    assertEquals(pid(), mainLanes.get("lanes").get(0).get("tid").asInt());
    assertSumsAreTheThreadStates(onlyMain, pageProcess(onlyMain, pid()).get("wall"));

    // --load 0: only the instants at which none of its threads ran, so no lane runs.
    Cli load0 = E2e.analyzeCached("--pid", Integer.toString(pid()), "--load", "0",
        E2e.trace("stalls").toString());
    JsonNode load0Wall = pageProcess(load0, pid()).get("wall");
    for (JsonNode lane : load0Wall.get("lanes").get("lanes")) {
      assertEquals(-1, buckets(lane).indexOf('0'), "a running bucket at load 0: " + lane);
    }
    assertSumsAreTheThreadStates(load0, load0Wall);
  }

  /** The lanes' thread time per state is summary.json's by_state_s (no lane is left out). */
  private static void assertSumsAreTheThreadStates(Cli cli, JsonNode wall) {
    JsonNode byState = WallChecks.threadStates(cli, pid()).get("by_state_s");
    for (int s = 0; s < STATES.size(); s++) {
      double sum = 0;
      for (JsonNode lane : wall.get("lanes").get("lanes")) {
        sum += lane.get("by_state_ns").get(s).asDouble();
      }
      assertEquals(byState.get(STATES.get(s)).asDouble(), sum / 1e9, 1e-6, STATES.get(s));
    }
  }

  private static Window window(String name) {
    return windows().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
  }

  private static long ns(double seconds) {
    return Math.round(seconds * 1e9);
  }

  /** The states of a lane's buckets inside the window. */
  private static List<String> statesIn(JsonNode lanes, JsonNode lane, Window w) {
    long start = lanes.get("start_ns").asLong();
    long width = lanes.get("bucket_ns").asLong();
    String states = buckets(lane);
    List<String> out = new ArrayList<>();
    for (int k = (int) ((ns(w.start()) - start) / width + 1);
        k < Math.min(states.length(), (ns(w.end()) - start) / width); k++) {
      out.add(states.charAt(k) == '.' ? "none" : STATES.get(states.charAt(k) - '0'));
    }
    return out;
  }

  /** A lane's runs ("c120a3.": 120 sleeping, 3 running, 1 none) as one character a bucket. */
  private static String buckets(JsonNode lane) {
    StringBuilder out = new StringBuilder();
    Matcher m = Pattern.compile("([a-z.])(\\d*)").matcher(lane.get("states").asText());
    while (m.find()) {
      char c = m.group(1).equals(".") ? '.' : (char) ('0' + m.group(1).charAt(0) - 'a');
      out.append(String.valueOf(c).repeat(m.group(2).isEmpty() ? 1
          : Integer.parseInt(m.group(2))));
    }
    return out.toString();
  }

  private static String stateMostOf(JsonNode lanes, JsonNode lane, Window w) {
    List<String> in = statesIn(lanes, lane, w);
    return STATES.stream().max((a, b) -> Integer.compare(count(in, a), count(in, b)))
        .orElseThrow();
  }

  private static int count(List<String> list, String s) {
    return (int) list.stream().filter(s::equals).count();
  }

  /** Root-to-leaf paths of a page flame tree ([name index, figures, children]). */
  private static void paths(JsonNode node, JsonNode strings, String prefix, List<String> out) {
    String path = prefix + ";" + strings.get(node.get(0).asInt()).asText();
    if (node.size() < 3) {
      out.add(path);
      return;
    }
    for (JsonNode child : node.get(2)) {
      paths(child, strings, path, out);
    }
  }

  private static void assertHasPath(List<String> paths, Pattern p) {
    assertTrue(paths.stream().anyMatch(x -> p.matcher(x).matches()),
        "no off-CPU path like " + p + " in " + paths.size() + " paths");
  }
}
