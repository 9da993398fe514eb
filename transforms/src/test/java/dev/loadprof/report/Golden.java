package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares output with a golden file under src/test/resources/testdata; run the tests with
 * -Dloadprof.updateGolden=true to rewrite the goldens instead (then review the diff).
 */
final class Golden {
  static final Path DIR = Path.of("src", "test", "resources", "testdata");

  private Golden() {}

  static boolean updating() {
    return Boolean.getBoolean("loadprof.updateGolden");
  }

  static void check(String name, String actual) throws IOException {
    Path file = DIR.resolve(name);
    if (updating()) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    if (!Files.exists(file)) {
      throw new AssertionError(
          "missing golden " + file + "; run with -Dloadprof.updateGolden=true to create it");
    }
    assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual, "golden " + name);
  }
}
