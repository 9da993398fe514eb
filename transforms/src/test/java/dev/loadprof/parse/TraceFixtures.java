package dev.loadprof.parse;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The fixture traces, found on the test classpath (not relative to the working directory). */
public final class TraceFixtures {
  private TraceFixtures() {}

  /** "phases" is the shipped example (examples/); the others are in traces/. */
  public static Path path(String name) {
    String resource = name.equals("phases") ? "/examples/phases.txt.gz"
        : "/traces/" + name + ".txt.gz";
    URL url = TraceFixtures.class.getResource(resource);
    if (url == null) {
      throw new IllegalStateException("no fixture " + resource + " on the test classpath");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
