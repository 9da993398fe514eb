package dev.loadprof.parse;

import static dev.loadprof.parse.PerfScriptParserTest.SAMPLE_HEADER;
import static dev.loadprof.parse.PerfScriptParserTest.parse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Frames found by a hash of part of their text, and a stack line that repeats the one before it:
 * equal text gives the same frames, and any difference, wherever it is, gives other ones.
 */
class StackFramesTest {
  private static final String LEAF = "\t            116a descend (/tmp/deep)";
  private static final String DESCEND = "\t            119e descend (/tmp/deep)";
  private static final String WORKER = "\t            11e2 worker (/tmp/deep)";
  private static final String ROOT = "\t           891f5 start_thread (/usr/lib/libc.so.6)";

  private static String record(String... frames) {
    return SAMPLE_HEADER + "\n" + String.join("\n", frames) + "\n\n";
  }

  private static String deep(String leaf, int depth, String bottom) {
    List<String> lines = new ArrayList<>();
    lines.add(leaf);
    for (int i = 0; i < depth; i++) {
      lines.add(DESCEND);
    }
    lines.add(bottom);
    lines.add(ROOT);
    return record(lines.toArray(new String[0]));
  }

  @Test
  void stacksThatShareAPrefixOrDifferAtOneEndKeepTheirOwnFrames() {
    String a = deep(LEAF, 46, WORKER);
    String prefix = deep(LEAF, 30, WORKER); // a shorter stack: the same leaf and root
    String lastDiffers = deep(LEAF, 46, "\t            11e2 worker (/tmp/deep2)");
    String leafDiffers = deep("\t            117e descend (/tmp/deep)", 46, WORKER);
    RecordingSink sink = parse(a + prefix + a + lastDiffers + a + leafDiffers + a);
    List<Frame[]> s = sink.stacks;
    assertEquals(7, s.size());
    for (int i : new int[] {2, 4, 6}) {
      assertArrayEquals(s.get(0), s.get(i));
      for (int f = 0; f < s.get(0).length; f++) {
        assertSame(s.get(0)[f], s.get(i)[f], "equal text, the same frame");
      }
    }
    assertEquals(49, s.get(0).length);
    assertEquals(33, s.get(1).length);
    assertEquals(new Frame("descend", "/tmp/deep", 0x119e), s.get(0)[1]);
    assertSame(s.get(0)[1], s.get(0)[46], "a repeated line gives the same frame");
    assertEquals(new Frame("worker", "/tmp/deep2", 0x11e2), s.get(3)[47]);
    assertEquals(new Frame("worker", "/tmp/deep", 0x11e2), s.get(0)[47]);
    assertEquals(new Frame("descend", "/tmp/deep", 0x117e), s.get(5)[0]);
    for (int i : new int[] {1, 3, 5}) {
      assertNotEquals(List.of(s.get(0)), List.of(s.get(i)));
    }
  }

  @Test
  void aRepeatedLineGivesItsFrameAndAnyOtherLineItsOwn() throws Exception {
    // Lines of one length that differ only in a char (address, symbol or dso), runs of equal
    // lines, and a record after a blank line: read whole, and in reads of a few chars, which
    // move each line to the front of the buffer, where the line before it was.
    String[] lines = {
        "\t  11a0 descend (/tmp/deep)", "\t  11a0 descend (/tmp/deep)", "\t  11a1 descend (/tmp/deep)",
        "\t  11a1 descend (/tmp/deep)", "\t  11a1 descenD (/tmp/deep)", "\t  11a1 descenD (/tmp/deeq)",
        "\t  11a1 descenD (/tmp/deeq)", "\t  11a0 descend (/tmp/deep)"};
    String in = record(lines) + record(lines[7], lines[7]) + record(lines[0]);
    List<Frame> expected = new ArrayList<>();
    for (String line : lines) {
      String[] parts = line.trim().split(" ");
      expected.add(new Frame(parts[1], parts[2].substring(1, parts[2].length() - 1),
          Long.parseLong(parts[0], 16)));
    }
    for (int chunk : new int[] {1, 3, 7, 1 << 20}) {
      RecordingSink sink = new RecordingSink();
      new PerfScriptParser().read(new PerfScriptParserTest.ChunkedReader(in, chunk), sink);
      assertEquals(expected, List.of(sink.stacks.get(0)), "chunk " + chunk);
      assertEquals(List.of(expected.get(7), expected.get(7)), List.of(sink.stacks.get(1)));
      assertEquals(List.of(expected.get(0)), List.of(sink.stacks.get(2)));
    }
  }

  @Test
  void framesWhoseHashesCollideStayApart() {
    // Same address, same length, same last 8 chars: the same hash, other symbols.
    String f1 = "\t            1000 alpha_fn (/lib/x.so)";
    String f2 = "\t            1000 gamma_fn (/lib/x.so)";
    int h1 = StackFrames.textHash(0x1000, f1.toCharArray(), f1.indexOf('1'), f1.length());
    int h2 = StackFrames.textHash(0x1000, f2.toCharArray(), f2.indexOf('1'), f2.length());
    assertEquals(h1, h2, "the test needs colliding hashes");
    RecordingSink sink = parse(record(f1, ROOT) + record(f2, ROOT) + record(f1, ROOT));
    List<Frame[]> s = sink.stacks;
    assertEquals(new Frame("alpha_fn", "/lib/x.so", 0x1000), s.get(0)[0]);
    assertEquals(new Frame("gamma_fn", "/lib/x.so", 0x1000), s.get(1)[0]);
    assertSame(s.get(0)[0], s.get(2)[0]);
  }

  @Test
  void rangeInternerComparesWholeKeysUnderOneHash() {
    RangeInterner<String> t = new RangeInterner<>(1000);
    char[] b = "abcXabdXabc".toCharArray();
    t.put(b, 0, 3, 7, "first");
    t.put(b, 4, 7, 7, "second");
    assertEquals("first", t.get(b, 8, 11, 7));
    assertEquals("second", t.get(b, 4, 7, 7));
    assertNull(t.get(b, 0, 2, 7), "a prefix is another key");
    assertNull(t.get(b, 0, 3, 8), "another hash is another key");
    // Growing keeps every key under its own hash.
    for (int i = 0; i < 600; i++) {
      char[] k = ("k" + i).toCharArray();
      t.put(k, 0, k.length, i % 5, "v" + i);
    }
    for (int i = 0; i < 600; i++) {
      char[] k = ("k" + i).toCharArray();
      assertEquals("v" + i, t.get(k, 0, k.length, i % 5));
    }
    assertEquals("first", t.get(b, 0, 3, 7));
  }

  @Test
  void boundedTablesStillGiveRightStacks() {
    // A tiny bound clears the frame table again and again; every stack must stay right.
    PerfScriptParser parser = new PerfScriptParser(20, PerfScriptParser.DEFAULT_MAX_LINE_CHARS);
    Random random = new Random(21);
    StringBuilder in = new StringBuilder();
    List<List<Frame>> expected = new ArrayList<>();
    for (int r = 0; r < 400; r++) {
      int depth = 1 + random.nextInt(12);
      List<String> lines = new ArrayList<>();
      List<Frame> frames = new ArrayList<>();
      for (int d = 0; d < depth; d++) {
        int f = random.nextInt(6);
        lines.add("\t  " + Integer.toHexString(0x100 + f) + " f" + f + " (/lib" + (f % 2) + ")");
        frames.add(new Frame("f" + f, "/lib" + (f % 2), 0x100 + f));
      }
      in.append(record(lines.toArray(new String[0])));
      expected.add(frames);
    }
    RecordingSink sink = parse(parser, in.toString());
    List<List<Frame>> got = new ArrayList<>();
    for (Frame[] s : sink.stacks) {
      got.add(List.of(s));
    }
    assertEquals(expected, got);
  }
}
