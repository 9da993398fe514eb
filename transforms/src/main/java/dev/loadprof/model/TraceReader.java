package dev.loadprof.model;

import java.io.IOException;
import java.io.InputStream;

/**
 * Turns one trace (one run) into events. Implementations: {@code PerfScriptParser} for perf script
 * text; a native perf.data reader can be added behind the same interface.
 */
public interface TraceReader {
  /**
   * Reads the whole (already decompressed) stream and sends every record to {@code sink}. Bad
   * records go to {@link TraceEventSink#malformed}; only I/O errors are thrown.
   *
   * @param sourceName the file name, for messages
   */
  void read(InputStream in, String sourceName, TraceEventSink sink) throws IOException;

  /**
   * Adds what only the reader knows of the run it just read (e.g. the host name from a header,
   * the number of input lines) to {@code run}.
   */
  default void describeRun(RunInfo run) {}
}
