package dev.loadprof.report;

import dev.loadprof.model.Frame;
import dev.loadprof.profile.FoldedFrames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lines of a folded-stacks file ({@code seg;seg;...;seg NS}), equal lines merged, in the
 * order of their text. A line is kept as its segments, each made once per distinct frame or name
 * and shared: deep stacks share long prefixes, and comparing their texts char by char (a sorted
 * map of strings) cost most of the report. Two lines compare by identity up to their first
 * differing segment, and then as their texts would ({@link #compare}).
 */
final class FoldedLines {
  /** Segments by text, so that equal segments are one object. */
  private final Map<String, String> segments = new HashMap<>();
  /** Each frame's segment: its cleaned symbol, kernel frames marked. */
  private final Map<Frame, String> frameSegments = new IdentityHashMap<>();
  private final Map<String, String> nameSegments = new HashMap<>();
  /** Each line's segments (a list over its array: hashed and compared element by element). */
  private final Map<List<String>, long[]> lines = new HashMap<>();

  /** A name (run id, comm, state) as a segment. */
  String name(String name) {
    String known = nameSegments.get(name);
    if (known == null) {
      known = segment(FoldedReport.clean(name));
      nameSegments.put(name, known);
    }
    return known;
  }

  /** A frame as a segment. */
  String frame(Frame f) {
    String known = frameSegments.get(f);
    if (known == null) {
      known = segment(FoldedReport.segment(f.symbol(), f.dso()));
      frameSegments.put(f, known);
    }
    return known;
  }

  /** The segment of the frame at stack[i] that covers run frames ({@link FoldedFrames}). */
  private String frame(Frame[] stack, int i, int run) {
    return run == 1 ? frame(stack[i])
        : segment(FoldedReport.segment(FoldedFrames.name(stack, i, run), stack[i].dso()));
  }

  private String segment(String text) {
    if (text.indexOf(';') >= 0 || text.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a folded segment holds a separator: " + text);
    }
    return segments.computeIfAbsent(text, t -> t);
  }

  /**
   * Adds ns to the line {@code first...;root;...;leaf;last...}: the stack is leaf first, and
   * {@code first} and {@code last} are segments made by this object. A run of "[unknown]"
   * frames is one segment ({@link FoldedFrames}).
   */
  void add(List<String> first, Frame[] stack, List<String> last, long ns) {
    String[] line = new String[first.size() + stack.length + last.size()];
    int k = 0;
    for (String s : first) {
      line[k++] = s;
    }
    for (int i = stack.length - 1; i >= 0; ) {
      int run = FoldedFrames.runLength(stack, i);
      line[k++] = frame(stack, i, run);
      i -= run;
    }
    for (String s : last) {
      line[k++] = s;
    }
    if (k < line.length) {
      line = Arrays.copyOf(line, k);
    }
    lines.computeIfAbsent(Arrays.asList(line), l -> new long[1])[0] += ns;
  }

  /** The lines with more than 0 ns, in the order of their text, each ending in a newline. */
  String render() {
    List<Map.Entry<List<String>, long[]>> sorted = new ArrayList<>(lines.entrySet());
    sorted.sort((x, y) -> compare(x.getKey(), y.getKey()));
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<List<String>, long[]> e : sorted) {
      long ns = e.getValue()[0];
      if (ns > 0) {
        List<String> line = e.getKey();
        for (int i = 0; i < line.size(); i++) {
          if (i > 0) {
            sb.append(';');
          }
          sb.append(line.get(i));
        }
        sb.append(' ').append(ns).append('\n');
      }
    }
    return sb.toString();
  }

  /**
   * The order of the lines' texts ({@code String.join(";", line)} compared by
   * {@code String#compareTo}), for lines of shared segments, which hold no ';'.
   */
  static int compare(List<String> a, List<String> b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      String x = a.get(i);
      String y = b.get(i);
      if (x != y && !x.equals(y)) {
        return compareSegments(x, i + 1 < a.size(), y, i + 1 < b.size());
      }
    }
    return Integer.compare(a.size(), b.size()); // one text is the start of the other
  }

  /**
   * Two different segments as their texts compare from there on: by their first differing char;
   * when one is the start of the other, the shorter text goes on with ';' or ends (first).
   */
  private static int compareSegments(String x, boolean xGoesOn, String y, boolean yGoesOn) {
    int m = Math.min(x.length(), y.length());
    int at = m;
    for (int k = 0; k < m; k++) {
      if (x.charAt(k) != y.charAt(k)) {
        at = k;
        break;
      }
    }
    if (at < m) {
      return x.charAt(at) - y.charAt(at);
    }
    if (x.length() < y.length()) {
      return xGoesOn ? ';' - y.charAt(m) : -1;
    }
    return yGoesOn ? x.charAt(m) - ';' : 1;
  }
}
