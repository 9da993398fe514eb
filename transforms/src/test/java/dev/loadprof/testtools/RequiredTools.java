package dev.loadprof.testtools;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The outside tools that some tests run: a Chromium browser, perf and go. A test asks for its
 * tool here; without it the test is skipped with a line that says how to install it, except
 * when {@value #SWITCH}=1 (set by .ci/run): then a missing tool fails the test with that line,
 * so that a CI image without a tool cannot pass with its checks never run.
 */
public final class RequiredTools {
  /** The environment variable that makes every tool required. */
  public static final String SWITCH = "LOADPROF_REQUIRE_TOOLS";

  /** A tool: the names it may have on the PATH, how to install it, and what needs it. */
  public enum Tool {
    CHROMIUM(List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"),
        "LOADPROF_CHROMIUM", "apt-get install -y chromium", "the HTML reports' browser tests"),
    PERF(List.of("perf"), null, "apt-get install -y linux-perf",
        "the perf.data and record tests"),
    GO(List.of("go"), null, "apt-get install -y golang-go", "the go tool pprof tests");

    final List<String> names;
    final String override;
    final String install;
    final String usedBy;

    Tool(List<String> names, String override, String install, String usedBy) {
      this.names = names;
      this.override = override;
      this.install = install;
      this.usedBy = usedBy;
    }

    String label() {
      return names.get(0);
    }
  }

  private RequiredTools() {}

  /** The tool's path; skips the calling test without it, or fails it when tools are required. */
  public static Path require(Tool tool) {
    return require(tool, System.getenv());
  }

  static Path require(Tool tool, Map<String, String> env) {
    Optional<Path> found = find(tool, env);
    if (found.isPresent()) {
      return found.get();
    }
    String missing = tool.label() + " is not on the PATH" + (tool.override == null ? ""
        : " (nor in $" + tool.override + ")") + ": install it (Debian: " + tool.install
        + ") to run " + tool.usedBy;
    if (required(env)) {
      fail(missing + ". " + SWITCH + "=1 (CI) requires every tool the tests use");
    }
    assumeTrue(false, "SKIPPED: " + missing);
    return null;
  }

  /** True when a missing tool fails the tests ({@value #SWITCH}=1 or true). */
  public static boolean required(Map<String, String> env) {
    String value = env.getOrDefault(SWITCH, "");
    return value.equals("1") || value.equalsIgnoreCase("true");
  }

  /** The tool on the PATH of {@code env} (perf only if it runs: Debian's wrapper may not). */
  public static Optional<Path> find(Tool tool, Map<String, String> env) {
    if (tool.override != null && !env.getOrDefault(tool.override, "").isBlank()) {
      return Optional.of(Path.of(env.get(tool.override)));
    }
    for (String name : tool.names) {
      for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)
            && (tool != Tool.PERF || runs(candidate, "--version"))) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean runs(Path binary, String arg) {
    try {
      Process p = new ProcessBuilder(binary.toString(), arg).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
