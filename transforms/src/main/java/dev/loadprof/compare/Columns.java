package dev.loadprof.compare;

import java.util.ArrayList;
import java.util.List;

/** Text columns as wide as their widest cell; the first column left-aligned, the rest right. */
final class Columns {
  private final List<String[]> rows = new ArrayList<>();

  Columns row(String... cells) {
    rows.add(cells);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void render(StringBuilder out) {
    int n = 0;
    for (String[] r : rows) {
      n = Math.max(n, r.length);
    }
    int[] width = new int[n];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        String pad = " ".repeat(width[i] - r[i].length());
        line.append(i == 0 ? "" : "  ").append(i == 0 ? r[i] + pad : pad + r[i]);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
