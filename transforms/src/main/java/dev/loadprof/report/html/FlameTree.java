package dev.loadprof.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.loadprof.model.Frame;
import dev.loadprof.profile.FoldedFrames;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * A flame graph: stacks merged from the root, each node with the real (wall) and CPU ns of one
 * or more sides (analyze has one; compare has baseline and candidate). To keep a report bounded
 * whatever the fleet, the children of a node that are below {@link #MIN_SHARE} of every
 * column's total are merged into one "[other]" child without children; so no level holds more
 * than about 1/MIN_SHARE nodes per column.
 */
public final class FlameTree {
  /** Frames narrower than this share of every total are merged into "[other]". */
  public static final double MIN_SHARE = 0.001;
  public static final String OTHER = "[other]";

  private final String name;
  /** Per side: real ns, then CPU ns. */
  private final long[] values;
  private final TreeMap<String, FlameTree> children = new TreeMap<>();
  /**
   * The child found last. Stacks come sorted, so the next stack mostly walks the same path, and
   * its frames share their name objects: found by identity, without comparing names in the map.
   */
  private FlameTree lastChild;

  private FlameTree(String name, int sides) {
    this.name = name;
    this.values = new long[2 * sides];
  }

  /** An empty tree named root with the given number of sides. */
  public static FlameTree empty(String root, int sides) {
    return new FlameTree(root, sides);
  }

  /** The one-side tree of these stacks (leaf first, as in StackWeight), small frames merged. */
  public static FlameTree of(String root, List<StackWeight> stacks) {
    FlameTree tree = empty(root, 1);
    for (StackWeight s : stacks) {
      tree.add(0, null, s);
    }
    tree.mergeSmall();
    return tree;
  }

  /** Adds the stack's real and CPU ns to a side, below an optional first frame (a comm). */
  public void add(int side, String first, StackWeight s) {
    add(side, first, s.stack(), s.wallNs(), s.cpuNs());
  }

  /** Adds real and CPU ns along a stack (leaf first) to a side, below an optional first frame. */
  public void add(int side, String first, Frame[] stack, long wall, long cpu) {
    add(side, wall, cpu);
    FlameTree node = this;
    if (first != null) {
      node = node.child(first);
      node.add(side, wall, cpu);
    }
    for (int i = stack.length - 1; i >= 0; ) {
      int run = FoldedFrames.runLength(stack, i); // a run of "[unknown]" frames is one frame
      node = node.child(FoldedFrames.name(stack, i, run));
      node.add(side, wall, cpu);
      i -= run;
    }
  }

  private FlameTree child(String childName) {
    FlameTree last = lastChild;
    if (last != null && last.name == childName) {
      return last;
    }
    last = children.computeIfAbsent(childName, n -> new FlameTree(n, values.length / 2));
    lastChild = last;
    return last;
  }

  private void add(int side, long wall, long cpu) {
    values[2 * side] += wall;
    values[2 * side + 1] += cpu;
  }

  /** Divides a side's figures by n (rounded), e.g. to one average run of n. */
  public void divide(int side, int n) {
    values[2 * side] = Math.round((double) values[2 * side] / n);
    values[2 * side + 1] = Math.round((double) values[2 * side + 1] / n);
    children.values().forEach(c -> c.divide(side, n));
  }

  /** Merges the frames below MIN_SHARE of every total into "[other]" (see the class). */
  public void mergeSmall() {
    long[] min = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      min[i] = (long) Math.ceil(values[i] * MIN_SHARE);
    }
    mergeSmall(min);
  }

  private void mergeSmall(long[] min) {
    lastChild = null; // it may be merged away below
    FlameTree other = new FlameTree(OTHER, values.length / 2);
    List<String> small = new ArrayList<>();
    for (Map.Entry<String, FlameTree> e : children.entrySet()) {
      FlameTree c = e.getValue();
      if (c.isBelow(min)) {
        small.add(e.getKey());
        other.addAll(c.values);
      } else {
        c.mergeSmall(min);
      }
    }
    small.forEach(children::remove);
    if (!other.isBelow(new long[values.length])) {
      // A real frame named "[other]" joins the merged ones: it is small too or it would stay.
      FlameTree same = children.get(OTHER);
      if (same != null) {
        other.addAll(same.values);
      }
      children.put(OTHER, other);
    }
  }

  /** True when every figure is below its minimum (all zero for minimums of 0: never). */
  private boolean isBelow(long[] min) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] >= min[i] && (values[i] != 0 || min[i] != 0)) {
        return false;
      }
    }
    return true;
  }

  private void addAll(long[] v) {
    for (int i = 0; i < values.length; i++) {
      values[i] += v[i];
    }
  }

  /** [name index, [real, CPU, ...per side], [children...]] with names in {@code strings}. */
  public void writeTo(ArrayNode into, StringTable strings) {
    writeTo(into, strings, null);
  }

  /**
   * As {@link #writeTo(ArrayNode, StringTable)}, with {@code tag} of each node's figures (real,
   * CPU per side) appended to its figures when not null.
   */
  public void writeTo(ArrayNode into, StringTable strings, ToIntFunction<long[]> tag) {
    into.add(strings.index(name));
    ArrayNode v = into.addArray();
    for (long x : values) {
      v.add(x);
    }
    if (tag != null) {
      v.add(tag.applyAsInt(values));
    }
    if (!children.isEmpty()) {
      ArrayNode kids = into.addArray();
      for (FlameTree c : children.values()) {
        c.writeTo(kids.addArray(), strings, tag);
      }
    }
  }

  public int nodeCount() {
    int n = 1;
    for (FlameTree c : children.values()) {
      n += c.nodeCount();
    }
    return n;
  }
}
