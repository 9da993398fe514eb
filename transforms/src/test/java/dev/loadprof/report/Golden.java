package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares output with a golden file, read from the classpath (testdata/ in the test resources);
 * run the tests with -Dloadprof.updateGolden=true to rewrite the goldens in
 * src/test/resources/testdata instead (then review the diff).
 */
final class Golden {
  private static final Path SOURCE_DIR = Path.of("src", "test", "resources", "testdata");

  private Golden() {}

  static boolean updating() {
    return Boolean.getBoolean("loadprof.updateGolden");
  }

  static void check(String name, String actual) throws IOException {
    if (updating()) {
      Path file = SOURCE_DIR.resolve(name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    try (InputStream in = Golden.class.getResourceAsStream("/testdata/" + name)) {
      if (in == null) {
        throw new AssertionError("missing golden testdata/" + name
            + "; run with -Dloadprof.updateGolden=true to create it");
      }
      assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual,
          "golden " + name);
    }
  }
}
