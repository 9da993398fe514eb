package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One output file of loadprof compare. Listed in {@link CompareOutputs#WRITERS}; a new output
 * (e.g. compare.html) is one more class implementing this and one more entry in that list.
 */
public interface CompareWriter {
  String fileName();

  /** Writes the file; the stream is closed by the caller. */
  void write(Analysis all, Comparison c, OutputStream out) throws IOException;
}
