package dev.loadprof.cli;

import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.reader.PerfDataReading;
import dev.loadprof.pipelines.AnalyzeSettings;
import picocli.CommandLine.Option;

/** How traces are parsed, shared by analyze and archive: the sampling event and the window. */
final class ParsingOptions {
  static final long DEFAULT_WINDOW_MS = 1000;

  @Option(names = {"-e", "--event"}, paramLabel = "NAME", converter = Converters.NonEmpty.class,
      description = "Sampling event to profile (e.g. cpu-clock, cycles). Default: the first"
          + " sampling event in each trace.")
  String event;

  @Option(names = "--window", paramLabel = "DURATION", converter = Converters.DurationMs.class,
      description = "Time window the trace is cut into, e.g. 1s or 250ms (default 1s). Memory"
          + " per worker is bounded by one window of events.")
  Long windowMs;

  @Option(names = "--decode-pieces", paramLabel = "N",
      description = "perf.data inputs are decoded by N perf script processes in parallel, as"
          + " separate pipeline splits (default: one per available processor).")
  Integer decodePieces;

  @Option(names = "--parse-threads", paramLabel = "N",
      description = "The text of each trace is parsed on N threads: its parts in parallel, their"
          + " events handed on in order (default: one per available processor).")
  Integer parseThreads;

  @Option(names = "--decode-split", paramLabel = "time|cpu", defaultValue = "time",
      description = "How perf.data is cut for parallel decoding: time slices (--time, default)"
          + " or one piece per CPU (-C; system-wide recordings only).")
  String decodeSplit;

  @Option(names = "--perf-data-reader", paramLabel = "auto|native|perf-script",
      defaultValue = "auto",
      description = "How perf.data is decoded: auto (default) reads it natively and runs perf"
          + " script only for what the native reader cannot read, saying why; native or"
          + " perf-script force one.")
  String perfDataReader;

  void applyTo(AnalyzeSettings.Builder settings) throws UsageException {
    PerfDataReading reading = PerfDataReading.parse(perfDataReader);
    if (reading == null) {
      throw new UsageException("--perf-data-reader is auto, native or perf-script, got '"
          + perfDataReader + "'");
    }
    settings.perfDataReading(reading);
    if (!decodeSplit.equals("time") && !decodeSplit.equals("cpu")) {
      throw new UsageException("--decode-split is time or cpu, got '" + decodeSplit + "'");
    }
    if (decodePieces != null && decodePieces < 1) {
      throw new UsageException("--decode-pieces must be at least 1");
    }
    if (parseThreads != null && parseThreads < 1) {
      throw new UsageException("--parse-threads must be at least 1");
    }
    settings.parsing(windowMs != null ? windowMs : DEFAULT_WINDOW_MS, event,
        decodePieces == null ? 0 : decodePieces, parseThreads == null ? 0 : parseThreads,
        decodeSplit.equals("cpu") ? DecodePiece.Kind.CPU : DecodePiece.Kind.TIME);
  }

  /** The window in ns, given or the default. */
  long windowNs() {
    return (windowMs != null ? windowMs : DEFAULT_WINDOW_MS) * 1_000_000L;
  }

  /** The window in ns when --window was given, else null (archives keep their own). */
  Long windowNsIfGiven() {
    return windowMs == null ? null : windowMs * 1_000_000L;
  }
}
