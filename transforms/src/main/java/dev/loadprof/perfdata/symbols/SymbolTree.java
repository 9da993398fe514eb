package dev.loadprof.perfdata.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * perf's red-black tree of one object's symbols, built in perf's order (insert in table order,
 * fix ends, drop aliases, then add the PLT entries) with the classic red-black insert and erase
 * that perf's lib/rbtree.c implements. Where symbols overlap (a PLT entry inside _init's
 * stretched end, a label inside a function, reused JIT code) perf answers with whichever one its
 * search meets first, so only the same tree gives the same answer.
 */
final class SymbolTree {
  private static final class Node {
    final long start;
    long end;
    final int binding;
    final String name;
    boolean red = true;
    Node left;
    Node right;
    Node parent;
    int index;

    Node(long start, long end, int binding, String name) {
      this.start = start;
      this.end = end;
      this.binding = binding;
      this.name = name;
    }

    SymbolTable.Entry asEntry() {
      return new SymbolTable.Entry(start, end - start, binding, name, "");
    }
  }

  private Node root;
  private Node[] byIndex = new Node[0];

  /** Inserts as perf does: smaller starts to the left, equal or larger to the right. */
  void insert(long start, long end, int binding, String name) {
    Node node = new Node(start, end, binding, name);
    Node parent = null;
    Node at = root;
    while (at != null) {
      parent = at;
      at = start < at.start ? at.left : at.right;
    }
    node.parent = parent;
    if (parent == null) {
      root = node;
    } else if (start < parent.start) {
      parent.left = node;
    } else {
      parent.right = node;
    }
    insertFixup(node);
  }

  /** perf's symbols__fixup_end (not for kallsyms): a size of 0 reaches to the next symbol. */
  void fixupEnds() {
    List<Node> nodes = inOrder();
    for (int i = 0; i + 1 < nodes.size(); i++) {
      Node prev = nodes.get(i);
      if (prev.end == prev.start) {
        prev.end = nodes.get(i + 1).start;
      }
    }
    if (!nodes.isEmpty()) {
      Node last = nodes.get(nodes.size() - 1);
      if (last.end == last.start) {
        last.end = ((last.start + 4095) & -4096L) + 4096;
      }
    }
  }

  /** perf's symbols__fixup_duplicate: one symbol per start, erased pairwise from the left. */
  void dropAliases() {
    List<Node> nodes = inOrder();
    Node current = nodes.isEmpty() ? null : nodes.get(0);
    for (int i = 1; i < nodes.size(); i++) {
      Node next = nodes.get(i);
      if (current.start != next.start) {
        current = next;
        continue;
      }
      if (SymbolTable.firstIsBetter(current.asEntry(), current.end, next.asEntry(), next.end)) {
        erase(next);
      } else {
        erase(current);
        current = next;
      }
    }
  }

  /** Numbers the nodes in address order, after the last change. */
  void freeze() {
    List<Node> nodes = inOrder();
    byIndex = nodes.toArray(new Node[0]);
    for (int i = 0; i < byIndex.length; i++) {
      byIndex[i].index = i;
    }
  }

  /** perf's symbols__find: the first symbol on the search path that holds {@code ip}, or -1. */
  int find(long ip) {
    Node at = root;
    while (at != null) {
      if (ip < at.start) {
        at = at.left;
      } else if (ip > at.end || (ip == at.end && ip != at.start)) {
        at = at.right;
      } else {
        return at.index;
      }
    }
    return -1;
  }

  String name(int index) {
    return byIndex[index].name;
  }

  long start(int index) {
    return byIndex[index].start;
  }

  int size() {
    return byIndex.length;
  }

  private List<Node> inOrder() {
    List<Node> nodes = new ArrayList<>();
    Node at = root;
    List<Node> stack = new ArrayList<>();
    while (at != null || !stack.isEmpty()) {
      while (at != null) {
        stack.add(at);
        at = at.left;
      }
      at = stack.remove(stack.size() - 1);
      nodes.add(at);
      at = at.right;
    }
    return nodes;
  }

  private void insertFixup(Node node) {
    Node z = node;
    while (z.parent != null && z.parent.red) {
      Node parent = z.parent;
      Node grand = parent.parent;
      if (parent == grand.left) {
        Node uncle = grand.right;
        if (uncle != null && uncle.red) {
          parent.red = false;
          uncle.red = false;
          grand.red = true;
          z = grand;
        } else {
          if (z == parent.right) {
            z = parent;
            rotateLeft(z);
          }
          z.parent.red = false;
          z.parent.parent.red = true;
          rotateRight(z.parent.parent);
        }
      } else {
        Node uncle = grand.left;
        if (uncle != null && uncle.red) {
          parent.red = false;
          uncle.red = false;
          grand.red = true;
          z = grand;
        } else {
          if (z == parent.left) {
            z = parent;
            rotateRight(z);
          }
          z.parent.red = false;
          z.parent.parent.red = true;
          rotateLeft(z.parent.parent);
        }
      }
    }
    root.red = false;
  }

  /** Removes {@code z}, relinking nodes (never moving keys), as rb_erase does. */
  private void erase(Node z) {
    Node y = z;
    boolean removedRed = y.red;
    Node x;
    Node xParent;
    if (z.left == null) {
      x = z.right;
      xParent = z.parent;
      transplant(z, z.right);
    } else if (z.right == null) {
      x = z.left;
      xParent = z.parent;
      transplant(z, z.left);
    } else {
      y = z.right;
      while (y.left != null) {
        y = y.left;
      }
      removedRed = y.red;
      x = y.right;
      if (y.parent == z) {
        xParent = y;
      } else {
        xParent = y.parent;
        transplant(y, y.right);
        y.right = z.right;
        y.right.parent = y;
      }
      transplant(z, y);
      y.left = z.left;
      y.left.parent = y;
      y.red = z.red;
    }
    if (!removedRed) {
      eraseFixup(x, xParent);
    }
  }

  private void eraseFixup(Node node, Node nodeParent) {
    Node x = node;
    Node parent = nodeParent;
    while (x != root && (x == null || !x.red)) {
      if (x == parent.left) {
        Node w = parent.right;
        if (w.red) {
          w.red = false;
          parent.red = true;
          rotateLeft(parent);
          w = parent.right;
        }
        if (isBlack(w.left) && isBlack(w.right)) {
          w.red = true;
          x = parent;
          parent = x.parent;
        } else {
          if (isBlack(w.right)) {
            w.left.red = false;
            w.red = true;
            rotateRight(w);
            w = parent.right;
          }
          w.red = parent.red;
          parent.red = false;
          w.right.red = false;
          rotateLeft(parent);
          x = root;
          parent = null;
        }
      } else {
        Node w = parent.left;
        if (w.red) {
          w.red = false;
          parent.red = true;
          rotateRight(parent);
          w = parent.left;
        }
        if (isBlack(w.left) && isBlack(w.right)) {
          w.red = true;
          x = parent;
          parent = x.parent;
        } else {
          if (isBlack(w.left)) {
            w.right.red = false;
            w.red = true;
            rotateLeft(w);
            w = parent.left;
          }
          w.red = parent.red;
          parent.red = false;
          w.left.red = false;
          rotateRight(parent);
          x = root;
          parent = null;
        }
      }
    }
    if (x != null) {
      x.red = false;
    }
  }

  private static boolean isBlack(Node node) {
    return node == null || !node.red;
  }

  private void transplant(Node out, Node in) {
    if (out.parent == null) {
      root = in;
    } else if (out == out.parent.left) {
      out.parent.left = in;
    } else {
      out.parent.right = in;
    }
    if (in != null) {
      in.parent = out.parent;
    }
  }

  private void rotateLeft(Node x) {
    Node y = x.right;
    x.right = y.left;
    if (y.left != null) {
      y.left.parent = x;
    }
    y.parent = x.parent;
    if (x.parent == null) {
      root = y;
    } else if (x == x.parent.left) {
      x.parent.left = y;
    } else {
      x.parent.right = y;
    }
    y.left = x;
    x.parent = y;
  }

  private void rotateRight(Node x) {
    Node y = x.left;
    x.left = y.right;
    if (y.right != null) {
      y.right.parent = x;
    }
    y.parent = x.parent;
    if (x.parent == null) {
      root = y;
    } else if (x == x.parent.right) {
      x.parent.right = y;
    } else {
      x.parent.left = y;
    }
    y.right = x;
    x.parent = y;
  }
}
