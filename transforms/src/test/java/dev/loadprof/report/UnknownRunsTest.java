package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.loadprof.model.Frame;
import dev.loadprof.report.html.FlameTree;
import dev.loadprof.report.html.StringTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run of "[unknown]" frames (a thread's start through clone3, ~120 of them) is one frame that
 * says how many, by the same name in every folded output and in the flame graphs; kernel frames
 * end in "_[k]" in every folded output.
 */
class UnknownRunsTest {
  private static final Frame KERNEL = new Frame("schedule", "[kernel.kallsyms]", 0xff10);
  private static final Frame KERNEL_UNKNOWN = new Frame("[unknown]", "[kernel.kallsyms]", 0xff20);
  private static final Frame WORK = new Frame("work", "/bin/prog", 0x10);

  /** Leaf first: 2 kernel frames (one unknown), work, 120 user unknowns at other addresses. */
  private static Frame[] stack() {
    List<Frame> frames = new ArrayList<>(List.of(KERNEL, KERNEL_UNKNOWN, WORK));
    for (int i = 0; i < 120; i++) {
      frames.add(new Frame("[unknown]", i % 2 == 0 ? "[unknown]" : "/lib/libc.so.6", 0x100 + i));
    }
    return frames.toArray(new Frame[0]);
  }

  private static final String FOLDED = "[unknown×120];work;[unknown]_[k];schedule_[k]";

  @Test
  void foldedLinesAndDiffFoldedNameTheRunAlike() {
    FoldedLines lines = new FoldedLines();
    lines.add(List.of(lines.name("prog")), stack(), List.of(), 5);
    assertEquals("prog;" + FOLDED + " 5\n", lines.render());
    StringBuilder diffLine = new StringBuilder("prog"); // diff.folded's way
    FoldedReport.appendStack(diffLine, stack());
    assertEquals("prog;" + FOLDED, diffLine.toString());
  }

  @Test
  void aSingleUnknownKeepsItsNameAndRunsStopAtKnownFrames() {
    Frame u = new Frame("[unknown]", "/bin/prog", 1);
    Frame[] stack = {u, WORK, u, u, WORK, u}; // leaf first
    StringBuilder line = new StringBuilder("p");
    FoldedReport.appendStack(line, stack);
    assertEquals("p;[unknown];work;[unknown×2];work;[unknown]", line.toString());
  }

  @Test
  void theFlameGraphDrawsTheRunAsOneFrame() {
    FlameTree tree = FlameTree.empty("all", 1);
    tree.add(0, "prog", stack(), 1000, 1000);
    StringTable strings = new StringTable();
    ArrayNode out = new ObjectMapper().createArrayNode();
    tree.writeTo(out, strings);
    ArrayNode names = new ObjectMapper().createArrayNode();
    strings.writeTo(names);
    List<String> path = new ArrayList<>();
    ArrayNode node = out;
    while (node.size() > 2) {
      node = (ArrayNode) node.get(2).get(0);
      path.add(names.get(node.get(0).asInt()).asText());
    }
    assertEquals(List.of("prog", "[unknown×120]", "work", "[unknown]", "schedule"), path);
  }
}
