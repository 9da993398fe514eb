package dev.loadprof.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table whose column widths fit its widest cell, so that runs.txt, compare.txt and
 * the console line up whatever the names are. Right-aligned columns hold numbers.
 */
public final class TextTable {
  /** Per column, true = right-aligned; null: the first column left-aligned, the rest right. */
  private final boolean[] rightAligned;

  private final List<String[]> rows = new ArrayList<>();

  /** One flag per column: true = right-aligned. Every row has that many cells. */
  public TextTable(boolean... rightAligned) {
    this.rightAligned = rightAligned.clone();
  }

  private TextTable() {
    this.rightAligned = null;
  }

  /** A table of a label column and then figures; rows may have fewer cells than others. */
  public static TextTable labelsThenFigures() {
    return new TextTable();
  }

  /** Adds a row; the first row added is the header. */
  public TextTable add(String... cells) {
    if (rightAligned != null && cells.length != rightAligned.length) {
      throw new IllegalArgumentException("expected " + rightAligned.length + " cells");
    }
    rows.add(cells.clone());
    return this;
  }

  /** Every row on its own line after {@code indent}, columns two spaces apart, no trailing blanks. */
  public void render(StringBuilder out, String indent) {
    int columns = 0;
    for (String[] row : rows) {
      columns = Math.max(columns, row.length);
    }
    int[] width = new int[columns];
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
        boolean right = rightAligned == null ? i > 0 : rightAligned[i];
        line.append(right ? pad + row[i] : row[i] + pad);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
