package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.pipelines.E2e.Cli;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped example (4.7 MB of text: five parts of 1 MB) analyzed with its text parsed on one
 * thread and on three gives the same bytes in every output: parsing in parts changes nothing but
 * the time (one big trace on all cores).
 */
class ParseThreadsEndToEndTest {
  private static final String[] OUTPUTS = {"profile.pb.gz", "histogram.txt", "functions.txt",
      "flame.folded", "summary.json", "summary.txt"};

  @TempDir Path dir;

  @Test
  void oneThreadAndThreeGiveTheSameOutputs() {
    String trace = E2e.trace("phases").toString();
    Cli one = E2e.analyze(dir.resolve("one"), "--parse-threads", "1", trace).assertOk();
    Cli three = E2e.analyze(dir.resolve("three"), "--parse-threads", "3", trace).assertOk();
    for (String name : OUTPUTS) {
      assertArrayEquals(one.bytes(name), three.bytes(name), name);
    }
  }

  @Test
  void parseThreadsBelowOneIsRefused() {
    Cli cli = E2e.analyze(dir.resolve("zero"), "--parse-threads", "0",
        E2e.trace("phases").toString());
    assertEquals(2, cli.exit(), cli.stderr());
    assertEquals(true, cli.stderr().contains("--parse-threads must be at least 1"), cli.stderr());
  }
}
