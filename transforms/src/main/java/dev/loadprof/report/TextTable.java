package dev.loadprof.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table whose column widths fit its widest cell, so that runs.txt and the console
 * line up whatever the run ids are. Columns marked numeric are right-aligned.
 */
final class TextTable {
  private final boolean[] numeric;
  private final List<String[]> rows = new ArrayList<>();

  /** One flag per column: true = right-aligned. The first row added is the header. */
  TextTable(boolean... numeric) {
    this.numeric = numeric.clone();
  }

  TextTable add(String... cells) {
    if (cells.length != numeric.length) {
      throw new IllegalArgumentException("expected " + numeric.length + " cells");
    }
    rows.add(cells.clone());
    return this;
  }

  /** Every row on its own line, columns two spaces apart, no trailing blanks. */
  void render(StringBuilder out, String indent) {
    int[] width = new int[numeric.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[i] - row[i].length());
        line.append(numeric[i] ? pad + row[i] : row[i] + pad);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
