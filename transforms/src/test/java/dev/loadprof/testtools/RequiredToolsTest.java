package dev.loadprof.testtools;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A missing tool skips a test, or fails it when LOADPROF_REQUIRE_TOOLS=1 (as .ci/run sets). */
class RequiredToolsTest {
  @TempDir Path bin;

  @Test
  void aMissingToolSkipsTheTestByDefault() {
    TestAbortedException skipped = assertThrows(TestAbortedException.class,
        () -> RequiredTools.require(RequiredTools.Tool.GO, Map.of("PATH", bin.toString())));
    assertThat(skipped.getMessage(), containsString("go is not on the PATH"));
    assertThat(skipped.getMessage(), containsString("apt-get install -y golang-go"));
  }

  @Test
  void aMissingToolFailsTheTestWhenToolsAreRequired() {
    for (String on : new String[] {"1", "true"}) {
      AssertionFailedError failed = assertThrows(AssertionFailedError.class,
          () -> RequiredTools.require(RequiredTools.Tool.GO,
              Map.of("PATH", bin.toString(), RequiredTools.SWITCH, on)));
      assertThat(failed.getMessage(), containsString("go is not on the PATH"));
      assertThat(failed.getMessage(), containsString("requires every tool"));
    }
  }

  @Test
  void aToolOnThePathIsFound() throws Exception {
    Path go = fakeTool("go", 0);
    assertEquals(go, RequiredTools.require(RequiredTools.Tool.GO,
        Map.of("PATH", "/nonexistent:" + bin, RequiredTools.SWITCH, "1")));
    Path browser = fakeTool("chromium-browser", 0);
    assertEquals(browser, RequiredTools.require(RequiredTools.Tool.CHROMIUM,
        Map.of("PATH", bin.toString())));
  }

  @Test
  void aPerfThatDoesNotRunIsMissing() throws Exception {
    fakeTool("perf", 2); // Debian's wrapper without the kernel's perf exits non-zero
    AssertionFailedError failed = assertThrows(AssertionFailedError.class,
        () -> RequiredTools.require(RequiredTools.Tool.PERF,
            Map.of("PATH", bin.toString(), RequiredTools.SWITCH, "1")));
    assertThat(failed.getMessage(), containsString("perf is not on the PATH"));
  }

  private Path fakeTool(String name, int exit) throws Exception {
    Path tool = bin.resolve(name);
    Files.writeString(tool, "#!/bin/sh\nexit " + exit + "\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    return tool;
  }
}
