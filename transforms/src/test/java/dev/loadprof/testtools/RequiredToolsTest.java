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

  @Test
  void notRootSkipsTheTestOrFailsItWhenToolsAreRequired() {
    TestAbortedException skipped = assertThrows(TestAbortedException.class,
        () -> RequiredTools.requireRoot("perf record -a needs it", 1000, Map.of()));
    assertThat(skipped.getMessage(), containsString("not root (uid 1000): perf record -a"));
    AssertionFailedError failed = assertThrows(AssertionFailedError.class,
        () -> RequiredTools.requireRoot("perf record -a needs it", 1000,
            Map.of(RequiredTools.SWITCH, "1")));
    assertThat(failed.getMessage(), containsString("not root (uid 1000)"));
    RequiredTools.requireRoot("anything", 0, Map.of(RequiredTools.SWITCH, "1"));
  }

  @Test
  void theUidIsTheKernelsNotTheUserName() throws Exception {
    String uidLine = Files.readString(Path.of("/proc/self/status")).lines()
        .filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow();
    assertEquals(Integer.parseInt(uidLine.split("\\s+")[2]), RequiredTools.uid());
  }

  @Test
  void theWorkloadsAreFoundBesideAnAncestorOrWhereTheVariableSays(@TempDir Path elsewhere)
      throws Exception {
    Path shared = Files.createDirectories(bin.resolve("shared/workloads"));
    Files.writeString(shared.resolve("Makefile"), "all:\n");
    Path worktree = Files.createDirectories(bin.resolve("wt/branch/pipelines"));
    assertEquals(shared, RequiredTools.workloads(worktree, Map.of()));
    assertEquals(shared, RequiredTools.workloads(Path.of("/"),
        Map.of(RequiredTools.WORKLOADS, shared.toString())));
    // The temp dir's own ancestors may hold a shared/workloads (a clone in /tmp with ../shared):
    // then that one is the answer, else the failure that names where it looked.
    Path besideAnAncestor = null;
    for (Path p = elsewhere.getParent(); p != null && besideAnAncestor == null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("shared/workloads/Makefile"))) {
        besideAnAncestor = p.resolve("shared/workloads");
      }
    }
    if (besideAnAncestor != null) {
      assertEquals(besideAnAncestor.toRealPath(), RequiredTools.workloads(elsewhere,
          Map.of(RequiredTools.SWITCH, "1")).toRealPath());
    } else {
      AssertionFailedError failed = assertThrows(AssertionFailedError.class,
          () -> RequiredTools.workloads(elsewhere, Map.of(RequiredTools.SWITCH, "1")));
      assertThat(failed.getMessage(), containsString("no shared/workloads beside " + elsewhere));
    }
    assertThrows(AssertionFailedError.class, () -> RequiredTools.workloads(worktree,
        Map.of(RequiredTools.WORKLOADS, elsewhere.toString(), RequiredTools.SWITCH, "1")));
  }

  private Path fakeTool(String name, int exit) throws Exception {
    Path tool = bin.resolve(name);
    Files.writeString(tool, "#!/bin/sh\nexit " + exit + "\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    return tool;
  }
}
