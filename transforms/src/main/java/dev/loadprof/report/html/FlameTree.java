package dev.loadprof.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.loadprof.model.Frame;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The flame graph of one process: stacks merged from the root, each node with its real (wall)
 * and CPU ns. To keep a report bounded whatever the fleet, the children of a node that are below
 * {@link #MIN_SHARE} of the process's real time and of its CPU time are merged into one
 * "[other]" child without children; so no level holds more than about 1/MIN_SHARE nodes.
 */
public final class FlameTree {
  /** Frames narrower than this share of both totals are merged into "[other]". */
  public static final double MIN_SHARE = 0.001;
  public static final String OTHER = "[other]";

  private final String name;
  private long wallNs;
  private long cpuNs;
  private final TreeMap<String, FlameTree> children = new TreeMap<>();

  private FlameTree(String name) {
    this.name = name;
  }

  /** The tree of these stacks (leaf first, as in StackWeight), named root. */
  public static FlameTree of(String root, List<StackWeight> stacks) {
    FlameTree tree = new FlameTree(root);
    for (StackWeight s : stacks) {
      long wall = s.wallNs();
      tree.add(wall, s.cpuNs());
      FlameTree node = tree;
      Frame[] stack = s.stack();
      for (int i = stack.length - 1; i >= 0; i--) {
        node = node.children.computeIfAbsent(stack[i].symbol(), FlameTree::new);
        node.add(wall, s.cpuNs());
      }
    }
    tree.mergeSmall((long) Math.ceil(tree.wallNs * MIN_SHARE),
        (long) Math.ceil(tree.cpuNs * MIN_SHARE));
    return tree;
  }

  private void add(long wall, long cpu) {
    wallNs += wall;
    cpuNs += cpu;
  }

  private void mergeSmall(long minWall, long minCpu) {
    FlameTree other = new FlameTree(OTHER);
    List<String> small = new ArrayList<>();
    for (Map.Entry<String, FlameTree> e : children.entrySet()) {
      FlameTree c = e.getValue();
      if (c.wallNs < minWall && c.cpuNs < minCpu) {
        small.add(e.getKey());
        other.add(c.wallNs, c.cpuNs);
      } else {
        c.mergeSmall(minWall, minCpu);
      }
    }
    small.forEach(children::remove);
    if (other.wallNs > 0 || other.cpuNs > 0) {
      // A real frame named "[other]" joins the merged ones: it is small too or it would stay.
      FlameTree same = children.get(OTHER);
      if (same != null) {
        other.add(same.wallNs, same.cpuNs);
      }
      children.put(OTHER, other);
    }
  }

  /** [name index, wall ns, cpu ns, [children...]] with names interned in {@code strings}. */
  public void writeTo(ArrayNode into, StringTable strings) {
    into.add(strings.index(name));
    into.add(wallNs);
    into.add(cpuNs);
    if (!children.isEmpty()) {
      ArrayNode kids = into.addArray();
      for (FlameTree c : children.values()) {
        c.writeTo(kids.addArray(), strings);
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
