package dev.loadprof.compare;

import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/** Writes history.csv and nightly.json, each to the stream {@code open} gives its name. */
public final class NightlyOutputs {
  private NightlyOutputs() {}

  public static void writeAll(Nightly n, Function<String, OutputStream> open) throws IOException {
    try (OutputStream out = open.apply(HistoryCsv.FILE_NAME)) {
      new HistoryCsv().write(n, out);
    }
    try (OutputStream out = open.apply(NightlyJson.FILE_NAME)) {
      new NightlyJson().write(n, out);
    }
  }
}
