package dev.loadprof.perfdata.reader;

import java.io.IOException;

/**
 * A perf.data file that the native reader does not decode (pipe mode, big-endian, compressed
 * records, ...), found before any event was sent: the caller decodes it with perf script instead.
 * The message says why, for the console.
 */
public class UnsupportedPerfDataException extends IOException {
  public UnsupportedPerfDataException(String why) {
    super(why);
  }
}
