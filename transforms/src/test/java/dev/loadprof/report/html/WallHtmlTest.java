package dev.loadprof.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.ThreadStateSummary;
import org.junit.jupiter.api.Test;

/** report.html's whole-wall data: the lanes' run-length form and the off-CPU flame tree. */
class WallHtmlTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void lanesAreRunsOfALetterAndALength() {
    assertEquals("c3a.b", WallHtml.runLengths(new byte[] {2, 2, 2, 0, -1, 1}));
    assertEquals("f1000", WallHtml.runLengths(new byte[1000]).replace('a', 'f'));
    assertEquals(".2d", WallHtml.runLengths(new byte[] {-1, -1, 3}));
    assertEquals("", WallHtml.runLengths(new byte[0]));
  }

  /** The waits of offcpu.folded, the state as the leaf, summed over threads. */
  @Test
  void theOffCpuTreeHasTheStateUnderEachStack() {
    ThreadStateSummary s = new ThreadStateSummary();
    CallStack doze = new CallStack(new Frame[] {new Frame("do_nanosleep", "[kernel.kallsyms]"),
        new Frame("doze", "stalls"), new Frame("main", "stalls")});
    s.waits.put(new ThreadStateSummary.Wait(1, ThreadState.SLEEPING, doze), 90e6);
    s.waits.put(new ThreadStateSummary.Wait(2, ThreadState.SLEEPING, doze), 10e6);
    s.waits.put(new ThreadStateSummary.Wait(1, ThreadState.RUNNABLE, doze), 5e6);
    s.waits.put(new ThreadStateSummary.Wait(3, ThreadState.UNKNOWN, new CallStack(new Frame[0])),
        1e6);
    StringTable strings = new StringTable();
    ArrayNode tree = JSON.createArrayNode();
    WallHtml.offCpuFlame(s).writeTo(tree, strings);
    ArrayNode names = JSON.createArrayNode();
    strings.writeTo(names);
    assertEquals(106e6, tree.get(1).get(0).asDouble(), "all off-CPU time");
    JsonNode main = child(child(tree, "main", names), "doze", names);
    JsonNode sleep = child(child(main, "do_nanosleep", names), "sleeping", names);
    assertEquals(100e6, sleep.get(1).get(0).asDouble(), "both threads' sleeps");
    assertEquals(0, sleep.get(1).get(1).asDouble(), "no CPU time");
    assertTrue(sleep.size() < 3, "the state is a leaf");
    assertEquals(1e6, child(tree, "unknown", names).get(1).get(0).asDouble(),
        "a wait without a stack is its state alone");
  }

  @Test
  void aProcessWithoutThreadStatesHasNoWallView() {
    ObjectNode o = JSON.createObjectNode();
    WallHtml.writeTo(o, new ProcessLoad(), null, java.util.Map.of(), new StringTable());
    assertTrue(o.get("wall").isNull());
  }

  private static JsonNode child(JsonNode node, String name, JsonNode names) {
    for (JsonNode c : node.get(2)) {
      if (names.get(c.get(0).asInt()).asText().equals(name)) {
        return c;
      }
    }
    throw new AssertionError("no child " + name + " in " + node);
  }
}
