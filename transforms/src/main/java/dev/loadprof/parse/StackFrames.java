package dev.loadprof.parse;

import static dev.loadprof.parse.TextScan.isHex;
import static dev.loadprof.parse.TextScan.skipBlanks;
import static dev.loadprof.parse.TextScan.trimEnd;

import dev.loadprof.model.Frame;
import java.util.HashMap;
import java.util.Map;

/**
 * Parses a stack line {@code \t addr sym (dso)} into a {@link Frame}, interned by the line's text
 * so that identical frames share one instance. The dso is the last balanced parenthesised group
 * at the end of the line, when a blank precedes it ({@code (/memfd:x (deleted))} is one dso;
 * {@code foo(int)} is a symbol). A {@code +0x1f} offset (plain perf script, -F symoff) is stripped
 * so that frames equal those of the recommended layout.
 */
final class StackFrames {
  private final int maxFrames;
  private final RangeInterner<Frame> framesByText;
  /**
   * Second level, so that equal frames read after a cache clear, or by another parser of the
   * same trace ({@link ParallelTextParser}), give the same instance: equal stacks then compare
   * by identity when they are interned per block.
   */
  private final Map<Frame, Frame> canonicalFrames;

  private final HashMap<String, String> dsos = new HashMap<>();

  StackFrames(int maxFrames, Map<Frame, Frame> canonicalFrames) {
    this.maxFrames = maxFrames;
    this.framesByText = new RangeInterner<>(maxFrames);
    this.canonicalFrames = canonicalFrames;
  }

  /**
   * The interned Frame of the stack line b[s, e), or null when it has no hex address. Frames are
   * interned by their whole text, address included.
   */
  Frame frame(char[] b, int s, int e) {
    int i = s;
    while (i < e && (b[i] == '\t' || b[i] == ' ')) {
      i++;
    }
    int addrStart = i;
    long address = 0;
    while (i < e && isHex(b[i])) {
      address = (address << 4) | hexValue(b[i]);
      i++;
    }
    if (i == addrStart || (i < e && b[i] != ' ')) {
      return null;
    }
    int t = skipBlanks(b, i, e);
    int te = trimEnd(b, t, e);
    int h = textHash(address, b, addrStart, te);
    Frame f = framesByText.get(b, addrStart, te, h);
    if (f != null) {
      return f;
    }
    // perf -F ip alone prints bare addresses.
    f = canonical(t == te ? new Frame("[unknown]", "", address) : parseFrameText(b, t, te, address));
    framesByText.put(b, addrStart, te, h, f);
    return f;
  }

  /**
   * The hash of a frame's text b[s, e), whose hex address was read as {@code address}: the
   * address, the length and the last chars (the end of the dso), not every char. Frames of one
   * address mostly have one text, and the table compares whole texts anyway.
   */
  static int textHash(long address, char[] b, int s, int e) {
    int h = Long.hashCode(address * 0x9E3779B97F4A7C15L) + 31 * (e - s);
    for (int i = Math.max(s, e - 8); i < e; i++) {
      h = 31 * h + b[i];
    }
    return h;
  }

  /** The value of a hex digit (one that {@link TextScan#isHex} accepts). */
  private static int hexValue(char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
  }

  /** "ffffffff8100 sym (dso)": an inline frame, not a tracepoint's "key=value" payload. */
  static boolean startsWithAddress(char[] b, int s, int e) {
    int i = s;
    while (i < e && isHex(b[i])) {
      i++;
    }
    return i > s && (i == e || b[i] == ' ');
  }

  private Frame canonical(Frame f) {
    Frame known = canonicalFrames.putIfAbsent(f, f);
    if (known != null) {
      return known;
    }
    if (canonicalFrames.size() > maxFrames) {
      canonicalFrames.clear(); // bounds memory; frames stay equal, only sharing is lost
    }
    return f;
  }

  /** "sym (dso)" or "sym": the dso is the last balanced (...) group, if a blank precedes it. */
  private Frame parseFrameText(char[] b, int t, int te, long address) {
    int symEnd = te;
    String dso = "";
    if (b[te - 1] == ')') {
      int depth = 0;
      int open = -1;
      for (int i = te - 1; i >= t; i--) {
        char c = b[i];
        if (c == ')') {
          depth++;
        } else if (c == '(' && --depth == 0) {
          open = i;
          break;
        }
      }
      if (open == t || (open > t && b[open - 1] == ' ')) {
        String text = new String(b, open + 1, te - open - 2);
        dso = dsos.computeIfAbsent(text, k -> k);
        symEnd = trimEnd(b, t, open);
      }
    }
    symEnd = stripOffset(b, t, symEnd);
    return new Frame(new String(b, t, symEnd - t), dso, address);
  }

  /** Strips a trailing "+0x1f" (plain perf script and -F symoff) from a symbol. */
  private static int stripOffset(char[] b, int s, int e) {
    int i = e;
    while (i > s && isHex(b[i - 1])) {
      i--;
    }
    if (i < e && i - 3 >= s && b[i - 1] == 'x' && b[i - 2] == '0' && b[i - 3] == '+') {
      return i - 3;
    }
    return e;
  }
}
