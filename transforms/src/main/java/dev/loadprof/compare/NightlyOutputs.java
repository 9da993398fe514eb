package dev.loadprof.compare;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Function;

/** Writes every output of loadprof nightly, each to the stream {@code open} gives its name. */
public final class NightlyOutputs {
  /** history.csv, nightly.json, nightly.html and the console summary, in this order. */
  public static final List<NightlyWriter> WRITERS = List.of(new HistoryCsv(), new NightlyJson(),
      new NightlyReport(), new NightlySummary());

  private NightlyOutputs() {}

  /** Every file of {@link #WRITERS}; each stream is closed after writing. */
  public static void writeAll(Nightly n, Function<String, OutputStream> open) throws IOException {
    for (NightlyWriter w : WRITERS) {
      try (OutputStream out = open.apply(w.fileName())) {
        w.write(n, out);
      }
    }
  }
}
