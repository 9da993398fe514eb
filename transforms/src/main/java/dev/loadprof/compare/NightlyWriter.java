package dev.loadprof.compare;

import java.io.IOException;
import java.io.OutputStream;

/**
 * One output file of loadprof nightly. Listed in {@link NightlyOutputs#WRITERS}; a new output
 * (e.g. nightly.html) is one more class implementing this and one more entry in that list.
 */
public interface NightlyWriter {
  String fileName();

  /** Writes the file; the stream is closed by the caller. */
  void write(Nightly n, OutputStream out) throws IOException;
}
