package dev.loadprof.parse;

import dev.loadprof.model.Frame;
import dev.loadprof.model.TraceEventSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Micro-benchmark, not a test: parses a fixture (decompressed into memory first, so only the
 * parser is measured) N times and prints lines/s and MB/s. Run from the transforms module:
 *
 * <pre>
 * mvn -o -q -pl transforms test-compile
 * cd transforms
 * java -cp target/classes:target/test-classes dev.loadprof.parse.ParserThroughput [file] [N]
 * </pre>
 */
public final class ParserThroughput {
  public static void main(String[] args) throws IOException {
    Path file = Path.of(args.length > 0 ? args[0] : "../examples/phases.txt.gz");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    byte[] text;
    try (InputStream in = TraceFiles.open(file)) {
      text = in.readAllBytes();
    }
    long lines = 0;
    for (byte b : text) {
      if (b == '\n') {
        lines++;
      }
    }
    CountingSink sink = new CountingSink();
    PerfScriptParser parser = new PerfScriptParser();
    // Warm-up so the JIT has compiled the hot path before timing.
    for (int i = 0; i < Math.max(3, rounds / 4); i++) {
      parser.read(new ByteArrayInputStream(text), file.toString(), sink);
    }
    sink.events = 0;
    long start = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      parser.read(new ByteArrayInputStream(text), file.toString(), sink);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double mb = (double) text.length * rounds / (1 << 20);
    System.out.printf("%s: %d rounds of %.1f MB / %d lines in %.2f s: %.0f lines/s, %.1f MB/s"
            + " (%d events, %d malformed)%n",
        file, rounds, text.length / (double) (1 << 20), lines, seconds, lines * rounds / seconds,
        mb / seconds, sink.events, sink.malformed);
  }
}
