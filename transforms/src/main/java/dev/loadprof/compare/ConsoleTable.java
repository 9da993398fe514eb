package dev.loadprof.compare;

import dev.loadprof.report.TextTable;
import java.util.ArrayList;
import java.util.List;

/**
 * A text table of compare's and nightly's console (and compare.txt) that fits {@link #WIDTH}
 * columns whatever the names are: the first column (what the row is of, e.g. a process and a
 * function) gets the room the figures leave, and a longer name goes on a line of its own above
 * its row; a row's detail (its interval, the cause and its parts) goes on the lines below it,
 * wrapped at words.
 */
final class ConsoleTable {
  static final int WIDTH = 100;
  /** Column gap of TextTable. */
  private static final int GAP = 2;
  private static final String DETAIL_INDENT = "    ";
  private static final String DETAIL_WRAP_INDENT = "      ";

  private final String[] header;
  private final boolean textLast;
  private final List<String[]> rows = new ArrayList<>();
  private final List<String> details = new ArrayList<>();

  /**
   * The first column is the label, left-aligned; the others are right-aligned, but the last
   * when textLast (a word such as the kind of a change).
   */
  ConsoleTable(boolean textLast, String... header) {
    this.header = header.clone();
    this.textLast = textLast;
  }

  /** A row; detail (null for none) is printed below it. */
  ConsoleTable add(String detail, String... cells) {
    rows.add(cells.clone());
    details.add(detail);
    return this;
  }

  void render(StringBuilder out) {
    int[] width = new int[header.length];
    for (String[] row : withHeader()) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    int figures = 0;
    for (int i = 1; i < width.length; i++) {
      figures += GAP + width[i];
    }
    int labelRoom = Math.max(header[0].length(), WIDTH - figures);
    boolean[] right = new boolean[header.length];
    java.util.Arrays.fill(right, 1, header.length - (textLast ? 1 : 0), true);
    TextTable t = new TextTable(right);
    t.add(header);
    List<String> ownLine = new ArrayList<>();
    for (String[] row : rows) {
      String[] cells = row.clone();
      boolean tooLong = cells[0].length() > labelRoom;
      ownLine.add(tooLong ? cells[0] : null);
      if (tooLong) {
        cells[0] = "";
      }
      t.add(cells);
    }
    StringBuilder table = new StringBuilder();
    t.render(table, "");
    String[] lines = table.toString().split("\n");
    out.append(lines[0]).append('\n');
    for (int i = 0; i < rows.size(); i++) {
      if (ownLine.get(i) != null) {
        out.append(ownLine.get(i)).append('\n');
      }
      out.append(lines[i + 1]).append('\n');
      if (details.get(i) != null) {
        wrap(out, details.get(i));
      }
    }
  }

  private List<String[]> withHeader() {
    List<String[]> all = new ArrayList<>();
    all.add(header);
    for (String[] row : rows) {
      String[] figuresOnly = row.clone();
      figuresOnly[0] = "";
      all.add(figuresOnly);
    }
    return all;
  }

  /** A row's detail on lines of at most WIDTH, broken at spaces. */
  static void wrap(StringBuilder out, String text) {
    wrap(out, text, DETAIL_INDENT, DETAIL_WRAP_INDENT);
  }

  /**
   * The text after indent on lines of at most WIDTH, broken at spaces (a longer word stays
   * whole), the lines after the first after wrapIndent.
   */
  static void wrap(StringBuilder out, String text, String indent, String wrapIndent) {
    StringBuilder line = new StringBuilder(indent);
    boolean empty = true;
    for (String word : text.split(" ")) {
      if (!empty && line.length() + 1 + word.length() > WIDTH) {
        out.append(line).append('\n');
        line = new StringBuilder(wrapIndent);
        empty = true;
      }
      line.append(empty ? "" : " ").append(word);
      empty = false;
    }
    out.append(line).append('\n');
  }
}
