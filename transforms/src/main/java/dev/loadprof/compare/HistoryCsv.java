package dev.loadprof.compare;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * history.csv: one row per benchmark, process, function, metric and night, with the night's
 * median over its runs. Long format (one value a row), so any tool can pivot it into a table
 * over the nights. Fields are quoted when they hold a comma, quote or newline.
 */
public final class HistoryCsv implements NightlyWriter {
  public static final String FILE_NAME = "history.csv";
  static final String HEADER = "benchmark,process,function,metric,night,runs,value";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Nightly n, OutputStream out) throws IOException {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (HistoryPoint p : n.history()) {
      SeriesKey k = p.key();
      sb.append(field(k.group())).append(',').append(field(k.process())).append(',')
          .append(field(k.function() == null ? "" : k.function())).append(',')
          .append(k.metric().id()).append(',').append(p.night()).append(',').append(p.runs())
          .append(',').append(value(p.value())).append('\n');
    }
    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Whole ns for times stay whole; ratios keep their digits. */
  private static String value(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  static String field(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
