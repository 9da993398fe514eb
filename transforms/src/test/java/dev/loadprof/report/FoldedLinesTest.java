package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The folded lines come out exactly as the texts of the lines, merged in a sorted map of
 * strings, did: the order of the texts, also where one segment is the start of another and the
 * next char sorts below or above the ';' that follows the shorter one.
 */
class FoldedLinesTest {
  /** Chars below and above ';' (':' is what a ';' in a name becomes), and beyond Latin-1. */
  private static final String ALPHABET = " .:<ab_[]k\u00e9\u4e2d";

  private static String name(Random rnd) {
    StringBuilder b = new StringBuilder();
    int n = rnd.nextInt(4); // also empty names
    for (int i = 0; i < n; i++) {
      b.append(ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
    }
    return b.toString();
  }

  @Test
  void linesComeOutInTheOrderOfTheirText() {
    Random rnd = new Random(7);
    for (int round = 0; round < 50; round++) {
      List<Frame> frames = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        // Equal symbols in other objects, kernel and user, and as other (equal) frame objects.
        frames.add(new Frame(name(rnd), rnd.nextBoolean() ? "[kernel.kallsyms]" : "/bin/x",
            rnd.nextInt(3)));
      }
      FoldedLines lines = new FoldedLines();
      Map<String, Long> expected = new TreeMap<>();
      for (int s = 0; s < 200; s++) {
        Frame[] stack = new Frame[rnd.nextInt(5)];
        for (int i = 0; i < stack.length; i++) {
          Frame f = frames.get(rnd.nextInt(frames.size()));
          stack[i] = rnd.nextBoolean() ? f : new Frame(f.symbol(), f.dso(), f.address());
        }
        String comm = name(rnd) + ";x";
        List<String> last = rnd.nextBoolean() ? List.of() : List.of(lines.name("sleeping"));
        long ns = rnd.nextInt(3); // 0: merged, but not printed when its sum is 0
        lines.add(List.of(lines.name(comm)), stack, last, ns);
        StringBuilder key = new StringBuilder(FoldedReport.clean(comm));
        FoldedReport.appendStack(key, stack); // empty names are "[unknown]": runs of them too
        if (!last.isEmpty()) {
          key.append(";sleeping");
        }
        expected.merge(key.toString(), ns, Long::sum);
      }
      StringBuilder text = new StringBuilder();
      expected.forEach((k, v) -> {
        if (v > 0) {
          text.append(k).append(' ').append(v).append('\n');
        }
      });
      assertEquals(text.toString(), lines.render(), "round " + round);
    }
  }

  @Test
  void namesNeverHoldASeparator() {
    FoldedLines lines = new FoldedLines();
    assertEquals("a:b c", lines.name("a;b\nc"));
    assertEquals("f:g_[k]", lines.frame(new Frame("f;g", "[kernel.kallsyms]")));
  }
}
