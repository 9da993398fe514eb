package dev.loadprof.beam;

import dev.loadprof.model.TraceEventSink;
import dev.loadprof.parse.UnreadableTraceException;
import dev.loadprof.perfdata.reader.NativePerfDataReader;
import dev.loadprof.perfdata.reader.UnsupportedPerfDataException;
import dev.loadprof.perfdata.symbols.SymbolSources;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * perf.data that comes on a stream (stdin, a pipe, a FIFO, a remote file): written in pipe mode
 * ({@code perf record -o -}), it is read natively as it comes, with memory that does not grow
 * with its length; anything else is bad input. perf script cannot take the place of the native
 * reader here: the stream cannot be read twice.
 */
final class PerfDataStreams {
  private PerfDataStreams() {}

  /** Sends the events of the pipe-mode perf.data on {@code in} (named {@code path}) to sink. */
  static NativePerfDataReader read(String path, InputStream in, TraceEventSink sink)
      throws IOException {
    NativePerfDataReader reader;
    try {
      reader = NativePerfDataReader.open(in, path, SymbolSources.live());
    } catch (UnsupportedPerfDataException e) {
      throw new UnreadableTraceException(path + ": perf.data that loadprof cannot read from a"
          + " stream: " + e.getMessage() + ". Record to a local file (perf record -o X.data)"
          + " and give its path: perf script decodes what the native reader cannot");
    }
    reader.read(sink);
    return reader;
  }

  /**
   * Reads {@code in} to its end and drops what it reads, so that a program writing it is not
   * killed by SIGPIPE (perf record -o -, and the program it records) when loadprof stopped
   * reading early; an error ends it quietly (there is nothing more to save).
   */
  static void drain(InputStream in) {
    try {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      // the writer is gone or the stream broke: nothing is left to drain
    }
  }
}
