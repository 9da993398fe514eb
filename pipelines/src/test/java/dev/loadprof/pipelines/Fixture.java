package dev.loadprof.pipelines;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test fixtures from the classpath as files (the CLI and Beam read paths). A resource inside a
 * jar (transforms' test-jar) is copied once per JVM to a temporary directory, under its own
 * file name, because the file name is the run id.
 */
public final class Fixture {
  private static final Map<String, Path> COPIES = new ConcurrentHashMap<>();

  private Fixture() {}

  /** The resource (e.g. "/traces/mixed.txt.gz") as a file. */
  public static Path file(String resource) {
    URL url = Fixture.class.getResource(resource);
    if (url == null) {
      throw new IllegalArgumentException("no test resource " + resource + " on the classpath");
    }
    if (url.getProtocol().equals("file")) {
      try {
        return Path.of(url.toURI());
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(url.toString(), e);
      }
    }
    return COPIES.computeIfAbsent(resource, r -> copy(url, r));
  }

  private static Path copy(URL url, String resource) {
    try (InputStream in = url.openStream()) {
      Path dir = Files.createTempDirectory("loadprof-fixture");
      dir.toFile().deleteOnExit();
      Path file = dir.resolve(Path.of(resource).getFileName().toString());
      Files.copy(in, file);
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
